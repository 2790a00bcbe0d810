package sandbox

// Status is what the sandbox can enforce on this system.
type Status struct {
	// Available says commands can be sandboxed here.
	Available bool
	// ProtectsControlFiles says the project's control files are kept
	// read-only (see the package doc); without it only the approval gate
	// guards them.
	ProtectsControlFiles bool
	// Detail says what is enforced, and what is not and why, for people:
	// "Landlock ABI 7; network filtered by TCP port ...".
	Detail string
}

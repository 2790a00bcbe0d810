package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
)

// Config is the sandbox setting as settings.json holds it:
//
//	"sandbox": {"enabled": true, "allowWrite": ["~/.cache/go-build"],
//	            "denyRead": ["~/secrets"], "network": ["proxy.golang.org:443"]}
type Config struct {
	// Enabled runs commands in the sandbox.
	Enabled bool `json:"enabled"`
	// Required refuses to run commands at all when the sandbox is enabled
	// and the system cannot enforce it; otherwise they run unsandboxed
	// after a warning.
	Required bool `json:"required,omitempty"`
	// AllowWrite are directories writable besides the project and the
	// system temporary directory: absolute, ~/..., or relative to the
	// project.
	AllowWrite []string `json:"allowWrite,omitempty"`
	// DenyRead are paths that cannot be read, besides DefaultDenyRead.
	DenyRead []string `json:"denyRead,omitempty"`
	// Network says what network the command may use; nil is "off".
	Network *Network `json:"network,omitempty"`
	// AllowUnixSockets are Unix sockets (absolute, ~/... or relative to
	// the project) a command may connect to, such as
	// "/var/run/docker.sock": every other socket made outside the sandbox
	// is refused. Below Landlock ABI 9 the system cannot tell sockets
	// apart by path, so any entry allows them all (Status says so).
	AllowUnixSockets []string `json:"allowUnixSockets,omitempty"`
	// AllowAllUnixSockets allows connecting to every Unix socket.
	AllowAllUnixSockets bool `json:"allowAllUnixSockets,omitempty"`
}

// DefaultDenyRead are the paths no sandboxed command reads, whatever the
// settings: the person's SSH, AWS and Google Cloud credentials. cairn adds
// its own key file (models.json) when it builds a Policy.
var DefaultDenyRead = []string{"~/.ssh", "~/.aws", "~/.config/gcloud"}

// Network is what network a sandboxed command may use: "off" (the zero
// value), "on", or a list of "host:port" entries, of which only the port
// is enforced (see the package doc).
type Network struct {
	// Open allows all network use.
	Open bool
	// Allow are the "host:port" entries allowed when not Open.
	Allow []string
}

// String returns "off", "on" or the entries joined with commas.
func (n Network) String() string {
	switch {
	case n.Open:
		return "on"
	case len(n.Allow) == 0:
		return "off"
	}
	return strings.Join(n.Allow, ", ")
}

// MarshalJSON writes "off", "on" or the list.
func (n Network) MarshalJSON() ([]byte, error) {
	switch {
	case n.Open:
		return []byte(`"on"`), nil
	case len(n.Allow) == 0:
		return []byte(`"off"`), nil
	}
	return json.Marshal(n.Allow)
}

// UnmarshalJSON reads "off", "on", true, false or a list of "host:port"
// entries, refusing entries without a valid port.
func (n *Network) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch string(data) {
	case `"off"`, `false`:
		*n = Network{}
		return nil
	case `"on"`, `true`:
		*n = Network{Open: true}
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return fmt.Errorf(`network: use "off", "on" or a list of "host:port" entries, found %s`, data)
	}
	for _, e := range list {
		if _, err := entryPort(e); err != nil {
			return err
		}
	}
	*n = Network{Allow: list}
	return nil
}

// entryPort returns the port of a "host:port" entry.
func entryPort(entry string) (uint16, error) {
	_, port, err := net.SplitHostPort(entry)
	if err == nil {
		var p uint64
		if p, err = strconv.ParseUint(port, 10, 16); err == nil && p > 0 {
			return uint16(p), nil
		}
	}
	return 0, fmt.Errorf(`network entry %q: want "host:port" with a port from 1 to 65535`, entry)
}

// Ports returns the TCP ports the entries allow, sorted, without repeats.
func (n Network) Ports() []uint16 {
	var ports []uint16
	for _, e := range n.Allow {
		if p, err := entryPort(e); err == nil && !slices.Contains(ports, p) {
			ports = append(ports, p)
		}
	}
	slices.Sort(ports)
	return ports
}

// Tighten returns the sandbox settings in force when a project's settings
// lie over the person's own (global and session). A project can only make
// the sandbox stricter, since its files may come from anyone: it can enable
// or require the sandbox, deny more reads and narrow the network, but its
// allowWrite entries are dropped and it can never open a network the
// person closed. The dropped entries are returned so they can be reported.
func Tighten(user, project Config) (Config, []string) {
	out := user
	out.Enabled = user.Enabled || project.Enabled
	out.Required = user.Required || project.Required
	out.AllowWrite = slices.Clone(user.AllowWrite)
	out.DenyRead = slices.Clone(user.DenyRead)
	var dropped []string
	for _, d := range project.DenyRead {
		if !slices.Contains(out.DenyRead, d) {
			out.DenyRead = append(out.DenyRead, d)
		}
	}
	for _, w := range project.AllowWrite {
		dropped = append(dropped, "allowWrite "+w)
	}
	out.AllowUnixSockets = slices.Clone(user.AllowUnixSockets)
	for _, s := range project.AllowUnixSockets {
		dropped = append(dropped, "allowUnixSockets "+s)
	}
	if project.AllowAllUnixSockets && !user.AllowAllUnixSockets {
		dropped = append(dropped, "allowAllUnixSockets")
	}
	if user.Network != nil {
		n := *user.Network
		n.Allow = slices.Clone(n.Allow)
		out.Network = &n
	}
	if project.Network != nil {
		n, lost := narrow(out.network(), *project.Network)
		out.Network = &n
		dropped = append(dropped, lost...)
	}
	return out, dropped
}

// network is c.Network, "off" when unset.
func (c Config) network() Network {
	if c.Network == nil {
		return Network{}
	}
	return *c.Network
}

// narrow returns what both user and project allow, and the project's
// entries the person's setting does not allow.
func narrow(user, project Network) (Network, []string) {
	switch {
	case user.Open:
		return Network{Open: project.Open, Allow: slices.Clone(project.Allow)}, nil
	case project.Open:
		if len(user.Allow) == 0 {
			return Network{}, []string{`network "on"`}
		}
		return Network{Allow: slices.Clone(user.Allow)}, []string{`network "on"`}
	}
	var out Network
	var lost []string
	for _, e := range project.Allow {
		if slices.Contains(user.Allow, e) {
			out.Allow = append(out.Allow, e)
		} else {
			lost = append(lost, "network "+e)
		}
	}
	return out, lost
}

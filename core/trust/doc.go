// Package trust remembers which project directories the person has chosen
// to trust, so that files arriving with a cloned repository cannot change
// what cairn does behind their back.
//
// A project's control files (everything under .cairn/, and the AGENTS.md
// and CLAUDE.md at its root) can loosen cairn's behaviour: a settings file
// can switch approvals off, a rules file can allow commands, prompts and
// context files speak to the model with the person's authority. Until the
// person trusts the project, front ends load none of them, except that a
// project may still make approvals stricter. Trust is stored in the
// person's own directory (~/.cairn/trusted.json), keyed by the project's
// root, together with a fingerprint of its control files: when any of them
// changes (a pull, a checkout, a model's edit), the project must be trusted
// again.
package trust

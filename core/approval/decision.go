package approval

import (
	"strings"
	"sync"
)

// Scope is how long an approval lasts.
type Scope string

// The scopes of an approval.
const (
	// ScopeOnce allows one call.
	ScopeOnce Scope = "once"
	// ScopeSession remembers a rule until the Gate is dropped.
	ScopeSession Scope = "session"
	// ScopeAlways remembers a rule in the project's rules file.
	ScopeAlways Scope = "always"
)

// Decider says what decided a call.
type Decider string

// What can decide a call.
const (
	// ByMode: the mode does not ask for the tool's category.
	ByMode Decider = "mode"
	// BySandbox: the call runs in the OS sandbox, which the mode lets
	// run unasked (see SandboxedTool).
	BySandbox Decider = "sandbox"
	// ByRule: a remembered rule covers the call.
	ByRule Decider = "rule"
	// ByPerson: the person answered (or dismissed the question).
	ByPerson Decider = "person"
	// ByTimeout: nobody answered within the configured timeout.
	ByTimeout Decider = "timeout"
	// ByAbort: the context ended (the turn was aborted) before an answer.
	ByAbort Decider = "abort"
	// ByPolicy: nobody could be asked (print mode), so the call was
	// refused by policy; Reason says which and how to allow such calls.
	ByPolicy Decider = "policy"
	// ByArguments: the call's arguments cannot be read one way only
	// (core.CheckArguments), so it was refused without asking; Reason
	// says what was wrong.
	ByArguments Decider = "arguments"
	// ByInterceptor: an interceptor's VerdictAllow let the call through
	// where a rule could have; Reason names the interceptor.
	ByInterceptor Decider = "interceptor"
)

// Decision is the outcome of Gate.Check.
type Decision struct {
	// Allow says whether the tool may run.
	Allow bool
	// By says what decided.
	By Decider
	// Scope is how long an approval lasts: the scope the person chose, or
	// the scope of the rule that covered the call. Empty for denials and
	// for calls the mode lets through.
	Scope Scope
	// Reason is the person's reason for a denial, if they gave one (for
	// ByInterceptor, the interceptor that allowed the call).
	Reason string
	// Rules are the rules the person's answer created, if any.
	Rules []Rule
	// Warning, when set, is something the person should be told about the
	// decision (an "always" rule that could not be saved).
	Warning string
}

// DenialText returns what the model is told when the call is denied, to be
// sent as the tool's (error) result; "" when the call is allowed.
func (d Decision) DenialText() string {
	switch {
	case d.Allow:
		return ""
	case d.By == ByTimeout:
		return "The user did not answer the approval request in time, so this tool call was not run."
	case d.By == ByAbort:
		return "This tool call was cancelled before the user approved it."
	case d.By == ByPolicy:
		return PolicyDenialPrefix + ": " + d.Reason
	case d.By == ByArguments, d.By == ByPlan:
		return d.Reason
	}
	return DeniedText(d.Reason)
}

// DeniedText returns what the model is told when the person denies a call,
// with their reason if they gave one: "The user denied this tool call:
// <reason>".
func DeniedText(reason string) string {
	if reason == "" {
		return deniedPrefix + "."
	}
	return deniedPrefix + ": " + reason
}

const deniedPrefix = "The user denied this tool call"

// PolicyDenialPrefix starts the result of a call refused because no one
// could be asked (print and json modes).
const PolicyDenialPrefix = "This tool call needs approval and no one was asked, so it was not run"

// IsDenial reports whether a tool result's text is DeniedText's: the person
// refused the call.
func IsDenial(text string) bool { return strings.HasPrefix(text, deniedPrefix) }

// Option is an answer an approval question offers. Its value is what
// answers carry (stable, for front ends that map it onto their own
// buttons, such as ACP's allow_once and reject_always); Label is what a
// person reads.
type Option string

// The options of an approval question.
const (
	// OptionAllowOnce allows this call only.
	OptionAllowOnce Option = "allow_once"
	// OptionAllowSession remembers a rule for the command or file until the
	// session ends. It is offered only when a rule can cover the call.
	OptionAllowSession Option = "allow_session"
	// OptionAllowProject, offered for edit tools, allows the tool on every
	// file in the project until the session ends.
	OptionAllowProject Option = "allow_project"
	// OptionAllowServer, offered for MCP tools (mcp__<server>__<tool>),
	// allows every tool of the same server until the session ends.
	OptionAllowServer Option = "allow_server"
	// OptionAllowAlways remembers the rule OptionAllowSession would in the
	// project's rules file. It is offered only when the gate has one.
	OptionAllowAlways Option = "allow_always"
	// OptionDeny denies the call.
	OptionDeny Option = "deny"
	// OptionDenyReason denies the call and asks for a reason for the model.
	OptionDenyReason Option = "deny_reason"
)

var optionLabels = sync.OnceValue(func() map[Option]string {
	return map[Option]string{
		OptionAllowOnce:    "Allow once",
		OptionAllowSession: "Allow for this session",
		OptionAllowProject: "Allow all files in the project for this session",
		OptionAllowServer:  "Allow every tool of this MCP server for this session",
		OptionAllowAlways:  "Always allow",
		OptionDeny:         "Deny",
		OptionDenyReason:   "Deny with reason…",
	}
})

// Label is the option as a person reads it ("Allow once").
func (o Option) Label() string {
	if l, ok := optionLabels()[o]; ok {
		return l
	}
	return string(o)
}

// Allows reports whether the option lets the call run (accepting a plan
// lets exit_plan_mode run).
func (o Option) Allows() bool {
	if _, ok := o.AcceptsPlan(); ok {
		return true
	}
	return o == OptionAllowOnce || o == OptionAllowSession || o == OptionAllowProject || o == OptionAllowServer || o == OptionAllowAlways
}

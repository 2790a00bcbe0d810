package approval

import "context"

// A turn grant is Claude Code's skill allowed-tools: rules that hold from
// the prompt that runs a skill until the person's next message. The gate
// keeps one set at a time; the front end that starts prompts sets and
// clears it (cmd/cairn's skill interceptor).

// GrantTurn makes rules cover calls until ClearTurn or the next
// GrantTurn, for this gate's own calls only: a subagent's calls
// (WithoutTurnGrant) are judged without them. The mode still decides
// first, and protected files, leaving the sandbox and an interceptor's
// ask are asked about as ever. from names who granted them ("skill
// commit"), for the decision's Reason.
func (g *Gate) GrantTurn(from string, rules []Rule) error {
	set, err := compileAll(rules)
	if err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.turn, g.turnFrom = set, from
	return nil
}

// ClearTurn ends the turn grant, if any.
func (g *Gate) ClearTurn() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.turn, g.turnFrom = nil, ""
}

type noTurnGrantKey struct{}

// WithoutTurnGrant returns ctx for a call the turn grant must not cover: a
// subagent's (a skill's allowed-tools are the person's grant to the turn
// they started, not to the children it starts).
func WithoutTurnGrant(ctx context.Context) context.Context {
	return context.WithValue(ctx, noTurnGrantKey{}, true)
}

// turnGrantApplies reports whether ctx may use the turn grant.
func turnGrantApplies(ctx context.Context) bool {
	no, _ := ctx.Value(noTurnGrantKey{}).(bool)
	return !no
}

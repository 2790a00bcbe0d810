package pi

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

func TestAvailableThinkingLevels(t *testing.T) {
	plain := faux.Model
	plain.ID, plain.Reasoning = "plain", false
	thinker := faux.Model
	thinker.ID, thinker.Reasoning = "thinker", true
	xhigh := faux.Model
	xhigh.ID, xhigh.Reasoning = "gpt-5.2", true
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), models: []core.Model{plain, thinker, xhigh}})
	for _, c := range []struct {
		model core.Model
		want  []any
	}{
		{plain, []any{"off"}},
		{thinker, []any{"off", "minimal", "low", "medium", "high"}},
		{xhigh, []any{"off", "minimal", "low", "medium", "high", "xhigh"}},
	} {
		t.Run(c.model.ID, func(t *testing.T) {
			r.send(map[string]any{"id": "m", "type": "set_model", "provider": c.model.Provider, "modelId": c.model.ID})
			if res := r.response("m"); res.get("success") != true {
				t.Fatalf("set_model: %s", res.text)
			}
			r.send(map[string]any{"id": "l", "type": "get_available_thinking_levels"})
			if res := r.response("l"); !sameJSON(res.get("data"), map[string]any{"levels": c.want}) {
				t.Errorf("levels of %s: %s", c.model.ID, res.text)
			}
		})
	}
}

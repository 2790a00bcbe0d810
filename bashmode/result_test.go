package bashmode

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestResultMessage(t *testing.T) {
	code := 2
	res := Result{ExitCode: &code, Output: "boom", Truncated: true, FullOutputPath: "/tmp/x.log"}
	now := time.UnixMilli(1700000000123)
	msg := res.Message("make", true, now)
	data, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"bashExecution","command":"make","output":"boom","exitCode":2,"cancelled":false,"truncated":true,"fullOutputPath":"/tmp/x.log","timestamp":1700000000123,"excludeFromContext":true}`
	if string(data) != want {
		t.Errorf("message\n got %s\nwant %s", data, want)
	}

	cancelled := Result{Cancelled: true, Output: "partial"}.Message("sleep 9", false, now)
	data, _ = json.Marshal(cancelled)
	if strings.Contains(string(data), "exitCode") || !strings.Contains(string(data), `"cancelled":true`) {
		t.Errorf("cancelled message %s", data)
	}
}

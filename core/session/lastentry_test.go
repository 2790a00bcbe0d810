package session

import (
	"os"
	"testing"
	"time"
)

// TestListSaysWhenTheLastEntryWasWritten: a session written six days ago
// whose file was copied or touched just now (the demo copies its sessions)
// reports its last entry's time, so a picker does not call it "just now".
func TestListSaysWhenTheLastEntryWasWritten(t *testing.T) {
	s := testStore(t)
	written := time.Date(2026, 11, 15, 9, 30, 0, 0, time.UTC)
	s.Now = func() time.Time { return written }
	f := s.Create("/p")
	mustAppend(t, f, &MessageEntry{user("old question")})
	mustAppend(t, f, &MessageEntry{assistant("old answer")})
	f.Close()
	os.Chtimes(f.FilePath(), time.Now(), time.Now())
	infos, err := s.List("/p")
	if err != nil || len(infos) != 1 {
		t.Fatalf("List = %+v, %v", infos, err)
	}
	if got := infos[0].LastEntry; !got.Equal(written) {
		t.Errorf("LastEntry = %v, want %v", got, written)
	}
}

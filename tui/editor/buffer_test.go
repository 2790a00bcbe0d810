package editor

import (
	"slices"
	"testing"
)

func TestWrap(t *testing.T) {
	var p pastes
	tests := []struct {
		text  string
		width int
		want  []int
	}{
		{"", 5, []int{0}},
		{"abc", 5, []int{0}},
		{"abcde", 5, []int{0, 5}}, // full row: the cursor gets a row of its own
		{"abcdef", 5, []int{0, 5}},
		{"ab cd ef", 5, []int{0, 3, 8}}, // "cd ef" fills its row exactly
		{"abcdefghij", 3, []int{0, 3, 6, 9}},
		{"abcde fg", 5, []int{0, 5}}, // a space that does not fit starts the next row
		{"漢字漢", 3, []int{0, 1, 2}},
		{"漢字", 4, []int{0, 2}},
		{"漢a", 1, []int{0, 1, 2}}, // too wide for any row: alone on one
		{"\tx", 4, []int{0, 1}},
		{"one two three", 20, []int{0}},
	}
	for _, tt := range tests {
		if got := wrap([]rune(tt.text), tt.width, p.cellWidth, nil); !slices.Equal(got, tt.want) {
			t.Errorf("wrap(%q, %d) = %v, want %v", tt.text, tt.width, got, tt.want)
		}
	}
}

func TestBufferInsertSplitsLines(t *testing.T) {
	var p pastes
	b := newBuffer(p.cellWidth)
	b.insert([]rune("ab"))
	b.left()
	b.insert([]rune("1\n2\n3"))
	if got := b.text(writeRune); got != "a1\n2\n3b" {
		t.Fatalf("text %q", got)
	}
	if b.row != 2 || b.col != 1 {
		t.Fatalf("cursor %d:%d, want 2:1", b.row, b.col)
	}
	// The split lines must not share memory: editing one leaves the others.
	b.inputStart()
	b.insert([]rune("x"))
	b.inputEnd()
	b.insert([]rune("y"))
	if got := b.text(writeRune); got != "xa1\n2\n3by" {
		t.Fatalf("text %q", got)
	}
}

func TestBufferRowsFollowEdits(t *testing.T) {
	var p pastes
	b := newBuffer(p.cellWidth)
	b.setWidth(4)
	b.insert([]rune("abcdefgh"))
	if n := b.totalRows(); n != 3 {
		t.Fatalf("%d rows, want 3 (two full rows and the cursor's)", n)
	}
	b.deleteBack()
	if n := b.totalRows(); n != 2 {
		t.Fatalf("%d rows after a delete, want 2", n)
	}
	b.setWidth(10)
	if n := b.totalRows(); n != 1 {
		t.Fatalf("%d rows when wider, want 1", n)
	}
	if !b.onFirstRow() || !b.onLastRow() {
		t.Fatal("single row is both first and last")
	}
}

package settings

import "errors"

// PiKeys are the keys of pi's settings.json that cairn reads, with the
// meaning pi gives them: the ones cairn's own settings share. Every other
// key of pi's file is left alone (see docs/configuration.md for the list
// and why).
var PiKeys = []string{
	"defaultProvider", "defaultModel", "defaultThinkingLevel",
	"steeringMode", "followUpMode", "compaction", "retry",
	"theme", "hideThinkingBlock", "shellPath", "shellCommandPrefix",
}

// Underlay lays the PiKeys that pi's global settings file at path sets
// under every other layer: cairn's own global file, the project's file and
// this session's changes all win over it. The file is only read; Set never
// writes it. A missing file sets nothing. The error, when not nil, is a
// *FileError to show as a warning, as Load's are; a value cairn cannot use
// is skipped.
func (s *Store) Underlay(path string) error {
	obj, err := readFile(path)
	if err != nil {
		return err
	}
	base := newObject()
	for _, k := range PiKeys {
		if v, ok := obj.get(k); ok {
			base.set(k, v)
		}
	}
	_, keyErrs := decode(base)
	var errs []error
	for _, ke := range keyErrs {
		var k *KeyError
		if errors.As(ke, &k) {
			base.remove(k.Key)
			if top, _, ok := cutDot(k.Key); ok {
				base.remove(top)
			}
		}
		errs = append(errs, &FileError{Path: path, Err: ke})
	}
	s.mu.Lock()
	s.base = base
	s.recompute()
	s.mu.Unlock()
	return errors.Join(errs...)
}

func cutDot(key string) (before, after string, found bool) {
	for i := 0; i < len(key); i++ {
		if key[i] == '.' {
			return key[:i], key[i+1:], true
		}
	}
	return key, "", false
}

package pihome

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-dev/cairn/core/atomicfile"
	"github.com/cairn-dev/cairn/core/regfile"
)

// AuthFile returns the path of pi's auth.json in dir.
func AuthFile(dir string) string { return filepath.Join(dir, "auth.json") }

// UpdateAuth changes one provider's entry of an auth.json in pi's format
// (pi's own, or cairn's, which has the same shape), as pi's
// AuthStorage.modify does. Under pi's lock (see lockAuthFile) it reads the
// file as it is now and passes the provider's entry (nil when there is
// none) to change. When change returns an entry, the file is written back
// as pi writes it (JSON.stringify with two-space indentation, no final
// newline): every other entry kept as it was and where it was, the
// provider's entry replaced in place or added last. The file is replaced
// atomically and keeps its mode; a new file (and its directory) is made
// private, as pi makes them. When change returns nil the file is left as
// it is. UpdateAuth returns the provider's entry as the file holds it
// afterwards. Every wait is bounded (see lockMaxWait); an error from change
// is returned as it is.
func UpdateAuth(ctx context.Context, path, provider string, change func(current json.RawMessage) (json.RawMessage, error)) (json.RawMessage, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("update %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = f.WriteString("{}")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", path, err)
		}
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	lock, err := lockAuthFile(ctx, path)
	if err != nil {
		return nil, err
	}
	defer lock.release()
	data, err := regfile.Read(path, regfile.MaxConfig)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	doc, err := parseOrderedObject(trimBOM(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	current := doc.get(provider)
	next, err := change(current)
	if err != nil {
		return nil, err
	}
	if next == nil {
		return current, nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, next); err != nil {
		return nil, fmt.Errorf("the new entry of %s is not JSON: %w", provider, err)
	}
	doc.set(provider, compact.Bytes())
	out, err := doc.indent()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// A linked auth.json (a dotfiles checkout) stays a link: its target is
	// replaced, as pi's write through the link changes the target.
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	if err := atomicfile.Write(target, out, 0o600); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return compact.Bytes(), nil
}

// orderedObject is a JSON object with its members in the order written.
type orderedObject struct {
	keys   []string
	values map[string]json.RawMessage
}

// parseOrderedObject reads a JSON object, keeping its members' order. An
// empty input is an empty object (as pi reads an empty file). A repeated
// key keeps its first place and its last value, as JavaScript's
// JSON.parse does.
func parseOrderedObject(data []byte) (*orderedObject, error) {
	o := &orderedObject{values: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("expected a JSON object of credentials by provider")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not valid JSON: %w", err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not valid JSON: %w", err)
		}
		o.set(key, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("not valid JSON: text after the object")
	}
	return o, nil
}

func (o *orderedObject) get(key string) json.RawMessage { return o.values[key] }

func (o *orderedObject) set(key string, v json.RawMessage) {
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = v
}

// indent writes the object as JSON.stringify(value, null, 2) does.
func (o *orderedObject) indent() ([]byte, error) {
	var compact bytes.Buffer
	compact.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			compact.WriteByte(',')
		}
		name, err := marshalNoEscape(k)
		if err != nil {
			return nil, err
		}
		compact.Write(name)
		compact.WriteByte(':')
		if err := json.Compact(&compact, o.values[k]); err != nil {
			return nil, err
		}
	}
	compact.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// marshalNoEscape encodes v as JSON without Go's HTML escapes, which
// JavaScript does not make.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// MarshalOrdered encodes members as one JSON object in the order given,
// leaving out members whose value is nil, as JSON.stringify leaves out
// undefined ones: how a credential is written in the key order pi writes
// it.
func MarshalOrdered(members ...Member) (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, m := range members {
		if m.Value == nil {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		k, err := marshalNoEscape(m.Name)
		if err != nil {
			return nil, err
		}
		v, err := marshalNoEscape(m.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Member is one name and value of an object MarshalOrdered writes.
type Member struct {
	Name  string
	Value any
}

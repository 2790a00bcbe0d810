package provider

import (
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// WriteJSON writes v to w exactly as EncodeJSON encodes it, piece by piece:
// structs, slices and the values behind pointers and interfaces are walked
// here, and every other value (a string, a number, a map, anything with its
// own MarshalJSON) is encoded on its own by encoding/json. So writing a
// request that replays a long conversation holds about one message's text
// at a time, not the whole body, and a Text is read from the session file
// only when its turn comes. A struct whose fields this walk does not model
// (embedded fields, the ",string" option, clashing names) is handed whole
// to encoding/json, which is always correct, only less frugal.
//
// An error leaves w holding part of a document.
func WriteJSON(w io.Writer, v any) error {
	e := jsonWriter{w: w}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	e.value(reflect.ValueOf(v))
	return e.err
}

// jsonWriter is WriteJSON's state: the destination, the first error, and
// the scratch buffer each leaf is encoded into.
type jsonWriter struct {
	w   io.Writer
	err error
	buf bytes.Buffer
	enc *json.Encoder
}

func (e *jsonWriter) write(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}

func (e *jsonWriter) value(v reflect.Value) {
	if e.err != nil {
		return
	}
	if !v.IsValid() {
		e.write("null")
		return
	}
	if v.Type() == textType {
		t := v.Interface().(Text)
		e.leaf(reflect.ValueOf(t.String()))
		return
	}
	if !walkable(v.Type()) {
		e.leaf(v)
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.write("null")
			return
		}
		e.value(v.Elem())
	case reflect.Struct:
		e.object(v, structFields(v.Type()))
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			e.write("null")
			return
		}
		e.write("[")
		for i := range v.Len() {
			if i > 0 {
				e.write(",")
			}
			e.value(v.Index(i))
		}
		e.write("]")
	default:
		e.leaf(v)
	}
}

func (e *jsonWriter) object(v reflect.Value, fields []jsonField) {
	sep := "{"
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmptyJSONValue(fv) || f.omitZero && isZeroJSONValue(fv) {
			continue
		}
		e.write(sep + f.key)
		sep = ","
		e.value(fv)
	}
	if sep == "{" {
		e.write("{")
	}
	e.write("}")
}

// leaf encodes v with encoding/json. A value reached through a pointer or
// a slice is addressable there, so a MarshalJSON with a pointer receiver
// runs, as it would had the whole document been encoded at once.
func (e *jsonWriter) leaf(v reflect.Value) {
	if e.err != nil {
		return
	}
	x := v.Interface()
	if v.CanAddr() && v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface {
		x = v.Addr().Interface()
	}
	e.buf.Reset()
	if e.err = e.enc.Encode(x); e.err != nil {
		return
	}
	_, e.err = e.w.Write(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
}

// isEmptyJSONValue is encoding/json's test for omitempty.
func isEmptyJSONValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZeroJSONValue is encoding/json's test for omitzero, for the field
// types structFields accepts it on.
func isZeroJSONValue(v reflect.Value) bool {
	if v.Type().Implements(isZeroerType) {
		return v.Interface().(interface{ IsZero() bool }).IsZero()
	}
	return v.IsZero()
}

var (
	textType          = reflect.TypeFor[Text]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	isZeroerType      = reflect.TypeFor[interface{ IsZero() bool }]()
)

// jsonField is one encoded field of a struct: its index, its key with
// quotes and colon, and its omit options.
type jsonField struct {
	index               int
	key                 string
	omitEmpty, omitZero bool
}

// typeInfo is what the walk knows of a type: whether to walk it, and for a
// struct its fields.
type typeInfo struct {
	walk   bool
	fields []jsonField
}

var typeInfos sync.Map // reflect.Type -> *typeInfo

// walkable reports whether values of t are walked rather than encoded
// whole: structs this walk can model, and pointers, interfaces, slices and
// arrays that may lead to one or to a Text.
func walkable(t reflect.Type) bool { return infoOf(t).walk }

func structFields(t reflect.Type) []jsonField { return infoOf(t).fields }

func infoOf(t reflect.Type) *typeInfo {
	if info, ok := typeInfos.Load(t); ok {
		return info.(*typeInfo)
	}
	return computeInfos(t, map[reflect.Type]*typeInfo{})
}

// computeInfos works out t's typeInfo and those of the types it holds.
// Types still being worked out (a struct that holds itself) count as
// walkable meanwhile: walking is always correct for a type that can be
// walked at all, so the guess costs at most some speed.
func computeInfos(t reflect.Type, busy map[reflect.Type]*typeInfo) *typeInfo {
	if info, ok := typeInfos.Load(t); ok {
		return info.(*typeInfo)
	}
	if info, ok := busy[t]; ok {
		return info
	}
	info := &typeInfo{}
	busy[t] = info
	switch {
	case t == textType, t.Kind() == reflect.Pointer && t.Elem() == textType:
		info.walk = true
	case t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType),
		t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType):
		// Its own encoding: a leaf.
	default:
		switch t.Kind() {
		case reflect.Interface:
			info.walk = true
		case reflect.Pointer:
			info.walk = computeInfos(t.Elem(), busy).walk
		case reflect.Slice, reflect.Array:
			if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
				break // bytes, base64
			}
			info.walk = computeInfos(t.Elem(), busy).walk
		case reflect.Struct:
			if fields, ok := modelFields(t); ok {
				info.walk, info.fields = true, fields
				walk := false
				for _, f := range fields {
					walk = walk || computeInfos(t.Field(f.index).Type, busy).walk
				}
				info.walk = walk
			}
		}
	}
	typeInfos.Store(t, info)
	return info
}

// modelFields lists the encoded fields of struct type t, in encoding/json's
// order and with its keys, or reports false when t uses something the walk
// does not model.
func modelFields(t reflect.Type) ([]jsonField, bool) {
	var fields []jsonField
	seen := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil, false
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		if !plainKey(name) || seen[name] {
			return nil, false
		}
		seen[name] = true
		f := jsonField{index: i, key: `"` + name + `":`}
		for opt := range strings.SplitSeq(opts, ",") {
			switch opt {
			case "":
			case "omitempty":
				f.omitEmpty = true
			case "omitzero":
				// Only the forms whose test isZeroJSONValue knows.
				ft := sf.Type
				if ft.Kind() == reflect.Interface || ft.Kind() == reflect.Pointer && ft.Implements(isZeroerType) ||
					!ft.Implements(isZeroerType) && reflect.PointerTo(ft).Implements(isZeroerType) {
					return nil, false
				}
				f.omitZero = true
			default:
				return nil, false
			}
		}
		fields = append(fields, f)
	}
	return fields, true
}

// plainKey reports whether a key needs no escaping and is one
// encoding/json takes from a tag as it is.
func plainKey(name string) bool {
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '$' || r == '.') {
			return false
		}
	}
	return name != ""
}

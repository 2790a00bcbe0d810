package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// number is an optional numeric argument. Models now and then send numbers
// as strings ("10"), which are accepted as pi's validator coerces them.
type number struct {
	value float64
	set   bool
}

// UnmarshalJSON accepts a JSON number, a string holding one, or null.
func (n *number) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		// A type error gets the field's name added by encoding/json.
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[float64]()}
	}
	n.value, n.set = v, true
	return nil
}

// intOr returns the number truncated toward zero, or def when it is unset.
func (n number) intOr(def int) int {
	if !n.set {
		return def
	}
	v := math.Trunc(n.value)
	switch {
	case v > math.MaxInt32:
		return math.MaxInt32
	case v < math.MinInt32:
		return math.MinInt32
	}
	return int(v)
}

// boolean is an optional flag argument; "true" and "false" as strings are
// accepted too.
type boolean struct {
	value bool
}

// UnmarshalJSON accepts a JSON boolean, a string holding one, or null.
func (f *boolean) UnmarshalJSON(b []byte) error {
	switch strings.Trim(string(bytes.TrimSpace(b)), `"`) {
	case "true":
		f.value = true
	case "false", "null", "":
		f.value = false
	default:
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[bool]()}
	}
	return nil
}

// argError is a problem with a call's arguments, worded for the model.
type argError struct {
	tool, msg string
}

func (e *argError) Error() string {
	return fmt.Sprintf("Invalid arguments for %s: %s", e.tool, e.msg)
}

// decodeArgs reads a call's JSON arguments into v, strictly: arguments
// core.CheckArguments refuses (a key given twice or in another case, a key
// the tool's schema does not declare) are an error, so a tool called
// directly reads its arguments as the agent's gate did. Other problems are
// reported with the name of the field at fault.
func decodeArgs(spec core.ToolSpec, raw json.RawMessage, v any) error {
	canonical, err := core.CheckArguments(spec, raw)
	if err != nil {
		var ae *core.ArgumentsError
		if errors.As(err, &ae) {
			return &argError{spec.Name, ae.Problem}
		}
		return &argError{spec.Name, err.Error()}
	}
	dec := json.NewDecoder(bytes.NewReader(canonical))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return &argError{spec.Name, fmt.Sprintf("%s must be %s, got %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value)}
	case errors.As(err, &syntaxErr):
		return &argError{spec.Name, "arguments are not valid JSON: " + err.Error()}
	}
	return &argError{spec.Name, err.Error()}
}

// jsonKind names a Go kind the way a JSON Schema would.
func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "a boolean"
	}
	return "a number"
}

// requireString reports a missing required string argument.
func requireString(tool, name string, v *string) error {
	if v == nil {
		return &argError{tool, name + " is required"}
	}
	return nil
}

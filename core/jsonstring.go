package core

import "github.com/cairn-dev/cairn/core/jsonscan"

// AppendJSONString appends s to dst as a JSON string literal, exactly as
// jsonscan.AppendString does (which see); it stays for the front ends that
// call it.
func AppendJSONString(dst []byte, s string) []byte { return jsonscan.AppendString(dst, s) }

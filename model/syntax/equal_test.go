package syntax

import (
	"fmt"
	"reflect"
	"strings"
)

var posType = reflect.TypeOf(Pos{})

// treeDiff compares two syntax trees (or slices of them) ignoring every
// field of type Pos, and describes the first difference ("" if equal).
func treeDiff(a, b any) string {
	var path []string
	msg := diffValue(reflect.ValueOf(a), reflect.ValueOf(b), &path)
	if msg == "" {
		return ""
	}
	// path was collected from the difference up to the root.
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return "root" + strings.Join(path, "") + ": " + msg
}

// diffValue returns "" if a and b are equal; otherwise a message, with the
// path to the difference appended to *path, innermost first (the path is
// built only on a difference, keeping deep trees linear).
func diffValue(a, b reflect.Value, path *[]string) string {
	if a.IsValid() != b.IsValid() {
		return "one side is nil"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("type %v vs %v", a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return "nil vs non-nil"
			}
			return ""
		}
		return diffValue(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return "nil slice vs empty slice"
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("length %d vs %d", a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValue(a.Index(i), b.Index(i), path); d != "" {
				*path = append(*path, fmt.Sprintf("[%d]", i))
				return d
			}
		}
		return ""
	case reflect.Struct:
		if a.Type() == posType {
			return ""
		}
		for i := 0; i < a.NumField(); i++ {
			if d := diffValue(a.Field(i), b.Field(i), path); d != "" {
				*path = append(*path, "."+a.Type().Field(i).Name)
				return d
			}
		}
		return ""
	default:
		if a.Interface() != b.Interface() {
			return fmt.Sprintf("%v vs %v", a.Interface(), b.Interface())
		}
		return ""
	}
}

package syntax

import (
	"fmt"
	"reflect"
)

var posType = reflect.TypeOf(Pos{})

// treeDiff compares two syntax trees (or slices of them) ignoring every
// field of type Pos, and describes the first difference ("" if equal).
func treeDiff(a, b any) string {
	return diffValue("root", reflect.ValueOf(a), reflect.ValueOf(b))
}

func diffValue(path string, a, b reflect.Value) string {
	if a.IsValid() != b.IsValid() {
		return fmt.Sprintf("%s: one side is nil", path)
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: type %v vs %v", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil vs non-nil", path)
			}
			return ""
		}
		return diffValue(path, a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil slice vs empty slice", path)
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Struct:
		if a.Type() == posType {
			return ""
		}
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if d := diffValue(path+"."+f.Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	default:
		if a.Interface() != b.Interface() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
		return ""
	}
}

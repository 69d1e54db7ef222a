package main

// TERRAFORM-SPECIFIC date and time functions: Terraform defines timecmp itself
// (internal/lang/funcs/datetime.go); formatdate and timeadd are cty's.

import (
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// terraformTimeCmpFunc compares two RFC 3339 timestamps as instants: -1, 0
// or 1. Mirrors Terraform's funcs.TimeCmpFunc.
var terraformTimeCmpFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		a, err := parseRFC3339Timestamp(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(0, err)
		}
		b, err := parseRFC3339Timestamp(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(1, err)
		}
		switch {
		case a.Equal(b):
			return cty.NumberIntVal(0), nil
		case a.Before(b):
			return cty.NumberIntVal(-1), nil
		default:
			return cty.NumberIntVal(1), nil
		}
	},
})

// parseRFC3339Timestamp parses with time.RFC3339 and words the errors by
// timestamp part rather than by Go's layout. Mirrors Terraform's (and
// cty's) parseTimestamp.
func parseRFC3339Timestamp(ts string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, ts)
	if err == nil {
		return t, nil
	}
	perr, ok := err.(*time.ParseError)
	if !ok {
		return time.Time{}, err
	}
	if perr.LayoutElem == "" && perr.ValueElem == "" && perr.Message != "" {
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp%s", perr.Message)
	}
	what := map[string]string{
		"2006": "year", "01": "month", "02": "day of month", "15": "hour",
		"04": "minute", "05": "second", "Z07:00": "UTC offset",
	}[perr.LayoutElem]
	switch perr.LayoutElem {
	case "T":
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: missing required time introducer 'T'")
	case ":", "-":
		if perr.ValueElem == "" {
			return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: end of string where %q is expected", perr.LayoutElem)
		}
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: found %q where %q is expected", perr.ValueElem, perr.LayoutElem)
	}
	if what == "" {
		what = "timestamp segment"
	}
	if perr.ValueElem == "" {
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: end of string before %s", what)
	}
	return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: cannot use %q as %s", perr.ValueElem, what)
}

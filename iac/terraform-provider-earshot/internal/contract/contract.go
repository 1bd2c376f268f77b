// Package contract holds the rules of the API's request bodies, generated
// from the zod contracts (contract_gen.go), and checks values against them
// the way the API does, so a plan fails where the apply would.
package contract

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf16"
)

// Field is one property of a request body, as its JSON Schema states it.
type Field struct {
	Type      string
	Required  bool
	MinLength *int
	MaxLength *int
	MinItems  *int
	MaxItems  *int
	Minimum   *float64
	Maximum   *float64
	// Default is the JSON of the value the API takes when the field is left out.
	Default  string
	Enum     []string
	Patterns []string
	// Formats: a string field matches one of them (date-time, uri, ipv4, ipv6, cidrv4, cidrv6).
	Formats []string
	// Protocol restricts a uri's scheme.
	Protocol string
	// OrConst is a literal the field may be instead of its type.
	OrConst  string
	Nullable bool
	Items    *Field
}

// Input is a request body's fields by their JSON name.
type Input map[string]Field

// Field answers the named field; a name the contract lacks is a programming error.
func (input Input) Field(name string) Field {
	field, ok := input[name]
	if !ok {
		panic(fmt.Sprintf("the contract has no field %q", name))
	}
	return field
}

func ptr[T any](value T) *T { return &value }

// DefaultInt is the integer the API defaults the field to.
func (f Field) DefaultInt() int64 {
	var value int64
	if err := json.Unmarshal([]byte(f.Default), &value); err != nil {
		panic(fmt.Sprintf("default %q is not an integer: %v", f.Default, err))
	}
	return value
}

// DefaultString is the string the API defaults the field to.
func (f Field) DefaultString() string {
	var value string
	if err := json.Unmarshal([]byte(f.Default), &value); err != nil {
		panic(fmt.Sprintf("default %q is not a string: %v", f.Default, err))
	}
	return value
}

// DefaultBool is the boolean the API defaults the field to.
func (f Field) DefaultBool() bool {
	var value bool
	if err := json.Unmarshal([]byte(f.Default), &value); err != nil {
		panic(fmt.Sprintf("default %q is not a boolean: %v", f.Default, err))
	}
	return value
}

// CheckString answers why the API would refuse value, or "" when it accepts it.
// Lengths count UTF-16 code units, as JavaScript's do.
func (f Field) CheckString(value string) string {
	length := len(utf16.Encode([]rune(value)))
	if f.MinLength != nil && length < *f.MinLength {
		return fmt.Sprintf("must be at least %d characters", *f.MinLength)
	}
	if f.MaxLength != nil && length > *f.MaxLength {
		return fmt.Sprintf("must be at most %d characters", *f.MaxLength)
	}
	if len(f.Enum) > 0 && !contains(f.Enum, value) {
		return fmt.Sprintf("must be one of %s", strings.Join(f.Enum, ", "))
	}
	for _, pattern := range f.Patterns {
		if !regexp.MustCompile(pattern).MatchString(value) {
			return describePattern(pattern)
		}
	}
	if len(f.Formats) == 1 {
		return checkFormat(f.Formats[0], value, f.Protocol)
	}
	if len(f.Formats) > 1 {
		names := make([]string, 0, len(f.Formats))
		for _, format := range f.Formats {
			if checkFormat(format, value, f.Protocol) == "" {
				return ""
			}
			names = append(names, formatNames[format])
		}
		return "must be " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return ""
}

var formatNames = map[string]string{
	"date-time": "an RFC 3339 date-time",
	"uri":       "an absolute URL",
	"ipv4":      "an IPv4 address",
	"ipv6":      "an IPv6 address",
	"cidrv4":    "an IPv4 CIDR",
	"cidrv6":    "an IPv6 CIDR",
}

// CheckNumber answers why the API would refuse value, or "".
func (f Field) CheckNumber(value float64) string {
	if f.Minimum != nil && value < *f.Minimum {
		return fmt.Sprintf("must be at least %v", *f.Minimum)
	}
	if f.Maximum != nil && value > *f.Maximum {
		return fmt.Sprintf("must be at most %v", *f.Maximum)
	}
	return ""
}

// CheckCount answers why the API would refuse a list of n items, or "".
func (f Field) CheckCount(n int) string {
	if f.MinItems != nil && n < *f.MinItems {
		return fmt.Sprintf("must hold at least %d items", *f.MinItems)
	}
	if f.MaxItems != nil && n > *f.MaxItems {
		return fmt.Sprintf("must hold at most %d items", *f.MaxItems)
	}
	return ""
}

func contains(values []string, value string) bool {
	for _, candidate := range values {
		if candidate == value {
			return true
		}
	}
	return false
}

// Messages the contracts give their patterns, so a plan says what the API would.
var patternMessages = map[string]string{
	`^[^\x{0000}]*$`:           "must not contain a NUL character",
	`[^\t\n\v\f\r ]`:           "must not be only spaces",
	`^[A-Za-z0-9._:-]{1,128}$`: "must be letters, digits and . _ : - (1 to 128)",
	`^[A-Za-z0-9._-]{1,64}$`:   "must be letters, digits and . _ - (1 to 64)",
}

func describePattern(pattern string) string {
	if message, ok := patternMessages[pattern]; ok {
		return message
	}
	return "must match " + pattern
}

func checkFormat(format, value, protocol string) string {
	switch format {
	case "date-time":
		at, err := time.Parse(time.RFC3339Nano, value)
		if err != nil {
			return "must be an RFC 3339 date-time, such as 2026-06-30T00:00:00Z"
		}
		if year := at.UTC().Year(); year < 2 || year > 9998 || strings.HasPrefix(value, "0000") || strings.HasPrefix(value, "0001") || strings.HasPrefix(value, "9999") {
			return "must be a year from 0002 to 9998"
		}
	case "uri":
		parsed, err := url.Parse(value)
		if err != nil || parsed.Scheme == "" || parsed.Host == "" {
			return "must be an absolute URL"
		}
		if protocol != "" && !regexp.MustCompile(protocol).MatchString(parsed.Scheme) {
			return fmt.Sprintf("must be a URL whose scheme matches %s", protocol)
		}
	case "ipv4", "ipv6":
		address, err := netip.ParseAddr(value)
		if err != nil || address.Zone() != "" || (format == "ipv4") != address.Is4() {
			return "must be " + formatNames[format]
		}
	case "cidrv4", "cidrv6":
		prefix, err := netip.ParsePrefix(value)
		if err != nil || (format == "cidrv4") != prefix.Addr().Is4() {
			return "must be " + formatNames[format]
		}
	default:
		panic("no check for format " + format)
	}
	return ""
}

package main

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// paramSettings is the -set flag: "Name=value" pairs, separated by commas,
// that change the drafter's parameters for one run of the bench, so that a
// rule can be measured on and off without editing DefaultParams
// ("-set NamesTop=1,StemFloor=true").
type paramSettings []string

// settings are the -set flag's.
var settings paramSettings

// drafterParams are the drafter's parameters with -set's changes and the
// rules -off names turned off.
func drafterParams() extractive.Params {
	p := extractive.DefaultParams
	if err := settings.apply(&p); err != nil {
		panic(err) // main checked them
	}
	if err := extractive.SwitchOff(&p, offRules); err != nil {
		panic(err) // the flag checked them
	}
	return p
}

func (s *paramSettings) String() string { return strings.Join(*s, ",") }

func (s *paramSettings) Set(v string) error {
	for _, kv := range strings.Split(v, ",") {
		if kv = strings.TrimSpace(kv); kv != "" {
			*s = append(*s, kv)
		}
	}
	return nil
}

// apply sets each named field of p, or says which setting it cannot read.
func (s paramSettings) apply(p *extractive.Params) error {
	v := reflect.ValueOf(p).Elem()
	for _, kv := range s {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("-set %q: want Name=value", kv)
		}
		f := v.FieldByName(name)
		if !f.IsValid() {
			return fmt.Errorf("-set %q: extractive.Params has no field %s", kv, name)
		}
		switch f.Kind() {
		case reflect.Bool:
			b, err := strconv.ParseBool(value)
			if err != nil {
				return fmt.Errorf("-set %q: %s is true or false", kv, name)
			}
			f.SetBool(b)
		case reflect.Int:
			n, err := strconv.Atoi(value)
			if err != nil {
				return fmt.Errorf("-set %q: %s is a whole number", kv, name)
			}
			f.SetInt(int64(n))
		case reflect.Float64:
			x, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return fmt.Errorf("-set %q: %s is a number", kv, name)
			}
			f.SetFloat(x)
		default:
			return fmt.Errorf("-set %q: %s cannot be set from the command line", kv, name)
		}
	}
	return nil
}

// Package settings is the one place sponge's settings are resolved: each
// key's value comes from its command-line flag, else its environment
// variable, else the config file, else its default. The config file is
// $XDG_CONFIG_HOME/sponge/config (~/.config/sponge/config), lines of
// "key = value"; the format needs no parser beyond this file for four
// string keys, and '#' starts a comment line.
package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Key is a setting.
type Key struct {
	Name  string // in the config file and 'sponge config'
	Env   string // the environment variable
	About string
}

// Keys are the settings sponge knows. The library's variable is the one it
// has always read, SPONGE_HOME.
var Keys = []Key{
	{"library", "SPONGE_HOME", "the library folder (--library)"},
	{"endpoint", "SPONGE_ENDPOINT", "an OpenAI-compatible server that writes the statements of sponge ask (--endpoint)"},
	{"model", "SPONGE_MODEL", "the model name to ask the endpoint for (--model)"},
	{"hints", "SPONGE_HINTS", "on: sponge ask shows what is not set up (a model) and how to set it up, 3 times each; off: never"},
}

// Where a value comes from.
const (
	FromFlag    = "flag"
	FromEnv     = "env"
	FromFile    = "file"
	FromDefault = "default"
)

// Value is a resolved setting.
type Value struct {
	Key    Key
	Value  string
	Source string // FromFlag, FromEnv, FromFile or FromDefault
	File   string // the config file, when Source is FromFile
}

// Lookup returns the key named name, or an error naming the known keys.
func Lookup(name string) (Key, error) {
	for _, k := range Keys {
		if k.Name == name {
			return k, nil
		}
	}
	return Key{}, fmt.Errorf("unknown setting %q; the settings are %s", name, names())
}

func names() string {
	var n []string
	for _, k := range Keys {
		n = append(n, k.Name)
	}
	return strings.Join(n, ", ")
}

// Environ is what sponge reads of the process environment, taken once by
// a program's front end (FromOS) and handed down: nothing below the front
// end reads HOME, XDG_* or SPONGE_* itself, so a test that gives a stage an
// Environ of its own knows every folder the stage can reach.
//
// The zero Environ is no environment at all: nothing comes from it, no
// folder is a default, and a setting is only what a flag gives. A stage run
// inside another program (the in-process stages of sponge ask --passages,
// the MCP server, tests) has that one, and its folders by flags.
type Environ struct {
	// Home is the person's home folder; "" when there is none.
	Home string
	vars map[string]string // nil in the zero Environ
}

// Vars are the environment variables sponge reads, and the only ones an
// Environ holds: the settings' variables (Keys), the folders of the XDG
// base directory specification, and the terminal's conventions.
var Vars = []string{"XDG_DATA_HOME", "XDG_CONFIG_HOME", "SPONGE_HOME", "SPONGE_ENDPOINT", "SPONGE_MODEL", "SPONGE_HINTS",
	"NO_COLOR", "TERM", "COLUMNS", "SPONGE_TIMING", "SPONGE_LLAMA_LOG"}

// NewEnviron is an Environ of the home folder and variables given; a
// variable not in Vars is left out, as FromOS leaves it out.
func NewEnviron(home string, vars map[string]string) Environ {
	e := Environ{Home: home, vars: map[string]string{}} // not nil: an environment
	for _, v := range Vars {
		if x, ok := vars[v]; ok {
			e.vars[v] = x
		}
	}
	return e
}

// FromOS takes the Environ of this process. Only a program's front end (its
// main, or the front ends under internal/front) calls it, once. In a test
// binary it panics unless the test binary isolated its environment first
// (testsupport.Main): a test must never read the person's own settings,
// library or models.
func FromOS() Environ {
	if testing.Testing() {
		if err := checkIsolated(); err != nil {
			panic("settings.FromOS in a test: " + err.Error())
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	vars := map[string]string{}
	for _, v := range Vars {
		if x, ok := os.LookupEnv(v); ok {
			vars[v] = x
		}
	}
	return NewEnviron(home, vars)
}

// IsolatedEnv names the variable testsupport.Main sets to the temporary
// folder it points HOME and XDG_* into; FromOS, in a test binary, checks
// that they are still there.
const IsolatedEnv = "SPONGE_TEST_ISOLATED"

func checkIsolated() error {
	root := os.Getenv(IsolatedEnv)
	if root == "" {
		return fmt.Errorf("the environment is not isolated: call testsupport.Main from the package's TestMain")
	}
	// HOME must be the test's own; an XDG folder may be unset (it is
	// then under HOME), else must be the test's own too.
	for _, v := range []string{"HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"} {
		d := os.Getenv(v)
		if d == "" && v != "HOME" {
			continue
		}
		if rel, err := filepath.Rel(root, d); d == "" || err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return fmt.Errorf("$%s is %q, outside the test's own folder %s", v, d, root)
		}
	}
	return nil
}

// Get returns the variable's value, "" when it is not set.
func (e Environ) Get(name string) string { return e.vars[name] }

// DataDir is sponge's folder for a person's data: $XDG_DATA_HOME/sponge,
// else ~/.local/share/sponge. The default library and the shared models
// folder are in it.
func (e Environ) DataDir() string {
	if e.vars == nil {
		return ""
	}
	if d := e.vars["XDG_DATA_HOME"]; d != "" {
		return filepath.Join(d, "sponge")
	}
	if e.Home == "" {
		return filepath.Join(".", ".sponge")
	}
	return filepath.Join(e.Home, ".local", "share", "sponge")
}

// ModelsDir is the models folder every library shares: DataDir/models.
// "" in the zero Environ.
func (e Environ) ModelsDir() string {
	if e.vars == nil {
		return ""
	}
	return filepath.Join(e.DataDir(), "models")
}

// File is the config file: $XDG_CONFIG_HOME/sponge/config, else
// ~/.config/sponge/config.
// "" in the zero Environ.
func (e Environ) File() string {
	if e.vars == nil {
		return ""
	}
	if d := e.vars["XDG_CONFIG_HOME"]; d != "" {
		return filepath.Join(d, "sponge", "config")
	}
	if e.Home == "" {
		return filepath.Join(".", ".sponge-config")
	}
	return filepath.Join(e.Home, ".config", "sponge", "config")
}

// Default is a key's value when nothing sets it: the library is in DataDir;
// there is no endpoint or model (sponge serve or the installed model);
// hints are on.
func (e Environ) Default(k Key) string {
	switch k.Name {
	case "library":
		return e.DataDir()
	case "hints":
		return "on"
	}
	return ""
}

// Resolve returns the value of the key named name: flag when not empty,
// else the environment, else the config file, else the default. An
// unreadable or damaged config file is an error.
func (e Environ) Resolve(name, flag string) (Value, error) {
	k, err := Lookup(name)
	if err != nil {
		return Value{}, err
	}
	if flag != "" {
		return Value{Key: k, Value: flag, Source: FromFlag}, nil
	}
	if e.vars == nil {
		return Value{Key: k, Source: FromDefault}, nil
	}
	if v := e.vars[k.Env]; v != "" {
		return Value{Key: k, Value: v, Source: FromEnv}, nil
	}
	file, err := e.Read()
	if err != nil {
		return Value{}, err
	}
	if v, ok := file[k.Name]; ok && v != "" {
		if rest, ok := strings.CutPrefix(v, "~/"); ok && k.Name == "library" && e.Home != "" {
			v = filepath.Join(e.Home, rest)
		}
		return Value{k, v, FromFile, e.File()}, nil
	}
	return Value{Key: k, Value: e.Default(k), Source: FromDefault}, nil
}

// Library is the library folder: flag, else $SPONGE_HOME, else the config
// file's, else the default.
// In the zero Environ only the flag gives it, and without one it is an
// error.
func (e Environ) Library(flag string) (string, error) {
	v, err := e.Resolve("library", flag)
	if err == nil && v.Value == "" {
		err = fmt.Errorf("no library folder was given (--library DIR)")
	}
	return v.Value, err
}

// Read returns the settings of the config file (none when there is no
// file). A line that is not "key = value", or names an unknown key, is an
// error naming the file and line.
func (e Environ) Read() (map[string]string, error) {
	path := e.File()
	if path == "" {
		return map[string]string{}, nil
	}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the config file: %v", err)
	}
	return parse(path, b)
}

func parse(path string, b []byte) (map[string]string, error) {
	m := map[string]string{}
	for n, line := range strings.Split(string(b), "\n") {
		n++
		if len(line) > MaxValue+64 {
			return nil, fmt.Errorf("%s:%d: the line is %d characters long; a setting is at most %d", path, n, len(line), MaxValue)
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: not a setting (key = value): %q", path, n, line)
		}
		name = strings.TrimSpace(name)
		if _, err := Lookup(name); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		m[name] = strings.TrimSpace(value)
	}
	return m, nil
}

// MaxValue is the longest value a setting may have, in bytes: a folder, a
// URL or a model's name, with room to spare.
const MaxValue = 4096

// Set writes value for the key named name into the config file, keeping its
// other lines; an empty value removes the key. Removing is allowed for a key
// the file has but sponge does not know (a misspelling), so that it can be
// mended with sponge config unset.
func (e Environ) Set(name, value string) error {
	_, unknown := Lookup(name)
	if unknown != nil && value != "" {
		return unknown
	}
	if strings.ContainsAny(value, "\n\r") {
		return fmt.Errorf("a setting is one line")
	}
	if len(value) > MaxValue {
		return fmt.Errorf("a setting is at most %d characters, not %d", MaxValue, len(value))
	}
	path := e.File()
	if path == "" {
		return fmt.Errorf("no config file: sponge was given no environment")
	}
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("cannot read the config file: %v", err)
	}
	if _, err := parse(path, old); err != nil && value != "" {
		return err
	}
	var out []string
	done := false
	for _, line := range strings.Split(strings.TrimRight(string(old), "\n"), "\n") {
		k, _, ok := strings.Cut(line, "=")
		if ok && !strings.HasPrefix(strings.TrimSpace(line), "#") && strings.TrimSpace(k) == name {
			if value != "" && !done {
				out = append(out, name+" = "+value)
			}
			done = true
			continue
		}
		if line != "" || len(out) > 0 {
			out = append(out, line)
		}
	}
	if !done && value != "" {
		out = append(out, name+" = "+value)
	}
	if !done && unknown != nil {
		return unknown
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot make the config folder: %v", err)
	}
	text := strings.Join(out, "\n")
	if text != "" {
		text += "\n"
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return fmt.Errorf("cannot write the config file: %v", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write the config file: %v", err)
	}
	return nil
}

// All resolves every key, in the order of Keys, with the flags given (by
// key name; missing or empty for none).
func (e Environ) All(flags map[string]string) ([]Value, error) {
	var vs []Value
	for _, k := range Keys {
		v, err := e.Resolve(k.Name, flags[k.Name])
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}

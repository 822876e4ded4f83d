// Package settings is the one place sponge's settings are resolved: each
// key's value comes from its command-line flag, else its environment
// variable, else the config file, else its default. The config file is
// $XDG_CONFIG_HOME/sponge/config (~/.config/sponge/config), lines of
// "key = value"; the format needs no parser beyond this file for three
// string keys, and '#' starts a comment line.
package settings

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// DataDir is sponge's folder for a person's data: $XDG_DATA_HOME/sponge,
// else ~/.local/share/sponge. The default library and the shared models
// folder are in it.
func DataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "sponge")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".", ".sponge")
	}
	return filepath.Join(home, ".local", "share", "sponge")
}

// File is the config file: $XDG_CONFIG_HOME/sponge/config, else
// ~/.config/sponge/config.
func File() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "sponge", "config")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".", ".sponge-config")
	}
	return filepath.Join(home, ".config", "sponge", "config")
}

// Default is a key's value when nothing sets it: the library is in DataDir;
// there is no endpoint or model (sponge serve or the installed model).
func Default(k Key) string {
	if k.Name == "library" {
		return DataDir()
	}
	return ""
}

// Resolve returns the value of the key named name: flag when not empty,
// else the environment, else the config file, else the default. An
// unreadable or damaged config file is an error.
func Resolve(name, flag string) (Value, error) {
	k, err := Lookup(name)
	if err != nil {
		return Value{}, err
	}
	if flag != "" {
		return Value{k, flag, FromFlag}, nil
	}
	if v := os.Getenv(k.Env); v != "" {
		return Value{k, v, FromEnv}, nil
	}
	file, err := Read()
	if err != nil {
		return Value{}, err
	}
	if v, ok := file[k.Name]; ok && v != "" {
		if rest, ok := strings.CutPrefix(v, "~/"); ok && k.Name == "library" {
			if home, err := os.UserHomeDir(); err == nil {
				v = filepath.Join(home, rest)
			}
		}
		return Value{k, v, FromFile}, nil
	}
	return Value{k, Default(k), FromDefault}, nil
}

// Read returns the settings of the config file (none when there is no
// file). A line that is not "key = value", or names an unknown key, is an
// error naming the file and line.
func Read() (map[string]string, error) {
	path := File()
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
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
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
	return m, sc.Err()
}

// Set writes value for the key named name into the config file, keeping its
// other lines; an empty value removes the key. Removing is allowed for a key
// the file has but sponge does not know (a misspelling), so that it can be
// mended with sponge config unset.
func Set(name, value string) error {
	_, unknown := Lookup(name)
	if unknown != nil && value != "" {
		return unknown
	}
	if strings.ContainsAny(value, "\n\r") {
		return fmt.Errorf("a setting is one line")
	}
	path := File()
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
func All(flags map[string]string) ([]Value, error) {
	var vs []Value
	for _, k := range Keys {
		v, err := Resolve(k.Name, flags[k.Name])
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}

package keywords

import (
	"slices"
	"testing"
)

func TestOptions(t *testing.T) {
	for q, want := range map[string][]string{
		"What does ssh -L do?":                       {"-L"},
		"What do rsync --delete and -n do?":          {"--delete", "-n"},
		"How do I use find's -mtime, exactly?":       {"-mtime"},
		"Is a race-free program - like this - safe?": nil,
		"What is -5 degrees in Fahrenheit?":          nil,
		"What do -a -a -b -c -d -e do?":              {"-a", "-b", "-c", "-d"},
	} {
		if got := Options(q); !slices.Equal(got, want) {
			t.Errorf("Options(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestWritesOption(t *testing.T) {
	for _, c := range []struct {
		text, o string
		want    bool
	}{
		{"-L, --local", "-L", true},
		{"ssh [-L port] host", "-L", true},
		{"use -Lx", "-L", false},
		{"-l login_name", "-L", false},
		{"--delete-after", "--delete", false},
		{"the --DELETE option", "--delete", true},
		{"multi--delete", "--delete", false},
	} {
		if got := WritesOption(c.text, c.o); got != c.want {
			t.Errorf("WritesOption(%q, %q) = %v", c.text, c.o, got)
		}
	}
}

func TestDefinesOption(t *testing.T) {
	for _, c := range []struct {
		text, o string
		want    bool
	}{
		{"-z, --gzip, --gunzip, --ungzip Filter the archive through gzip(1).", "-z", true},
		{"-z, --gzip, --gunzip, --ungzip Filter the archive through gzip(1).", "--gunzip", true},
		{"-# --fast --best Regulate the speed of compression.", "--best", true},
		{"--max-redirs=NUM Set the maximum number of redirections.", "--max-redirs", true},
		{"-L [bind_address:]port:host:hostport Specifies that connections are forwarded.", "-L", true},
		{"This can happen if a compression option (e.g. -z) was used.", "-z", false},
		{"-a, --archive same as -dR --preserve=all", "-d", false},
		{"-l login_name Specifies the user.", "-L", false},
	} {
		if got := DefinesOption(c.text, c.o); got != c.want {
			t.Errorf("DefinesOption(%q, %q) = %v", c.text, c.o, got)
		}
	}
}

func TestOptionsSection(t *testing.T) {
	for h, want := range map[string]bool{"OPTIONS": true, "DESCRIPTION › Options": true, "SHELL BUILTIN COMMANDS": false, "EXAMPLES": false} {
		if got := OptionsSection(h); got != want {
			t.Errorf("OptionsSection(%q) = %v", h, got)
		}
	}
}

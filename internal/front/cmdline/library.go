package cmdline

import "time"

// The commands that save items or change the index: their code is in
// sponge-full (package cli), which links the extractors.
func init() {
	declare[AddOptions]("add", "save files, folders, URLs or stdin (-) in the library",
		"[OPTIONS] FILE|FOLDER|URL|- ...", addAbout)
	declare[UpdateOptions]("update", "bring the library up to date with the files and folders it saved",
		"[OPTIONS]", updateAbout)
	declare[RmOptions]("rm", "remove items from the library",
		"[OPTIONS] ID ...", rmAbout)
	declare[ReindexOptions]("reindex", "rebuild the index from the saved items",
		"[OPTIONS]", reindexAbout)
}

const addAbout = "Save files, folders (every supported file under them), http(s) URLs, or stdin (-).\n" +
	"Formats: Markdown, plain text, HTML, PDF, EPUB, DOCX, ODT, reStructuredText, Org, man pages,\n" +
	"WebVTT, SubRip, logs, and any other file of text (see README.md for what is read of each).\n" +
	"A file or URL saved before with other bytes is a new version: it replaces the old item, which is\n" +
	"gone (\"updated ID (was OLD ID)\"); the same bytes under another path are one item noting both.\n" +
	"In a folder, as ripgrep and fd do, hidden files and folders, .git, node_modules and what .gitignore\n" +
	"and .spongeignore files exclude are left out (a .spongeignore has git's rules, and may take back\n" +
	"with ! what .gitignore leaves out); --hidden and --no-ignore take them. A file named is always read.\n" +
	"Folders are remembered, with these settings: 'sponge update' adds the files that appear under them later." +
	"\n\nExamples:\n\n" +
	"  sponge add notes.md ~/papers\n" +
	"  sponge add https://go.dev/doc/effective_go\n" +
	"  cat notes.txt | sponge add --title \"Tea notes\" -"

type AddOptions struct {
	LibraryOpt
	Title     string        `long:"title" value-name:"TITLE" description:"the title of the item (with one input, e.g. stdin)"`
	Timeout   time.Duration `long:"timeout" default:"30s" value-name:"DURATION" description:"how long to wait for a URL"`
	Quiet     bool          `short:"q" long:"quiet" description:"print only errors: no line per input, no skipped inputs, no progress and no summary"`
	Summarize bool          `long:"summarize" description:"then write a summary of each item added (as sponge summarize does)"`
	Link      bool          `long:"link" description:"keep files where they are instead of a copy of each in the library (which then takes about the size of the text); sponge reindex --extract reads them there if they are unchanged. URLs and stdin are kept whole."`
	Follow    bool          `long:"follow" description:"in a folder, follow links to files outside it too (by default they are skipped, so that a link planted in a shared folder cannot bring a private file into the library)"`
	NoIgnore  bool          `long:"no-ignore" description:"in a folder, take what .gitignore and .spongeignore files exclude, and node_modules, too"`
	Hidden    bool          `long:"hidden" description:"in a folder, take hidden files and folders (names starting with a dot) too; .git only with --no-ignore as well"`
	AllText   bool          `long:"all-text" description:"keep every word a web page shows, its menus, links and footers too, for a page that is all content (sponge add says when it kept under a fifth of a page)"`
}

const updateAbout = "Read again every saved file that changed, and add the new files under the folders given to\n" +
	"sponge add, in one pass. A changed file's new version replaces the old item (a new id, as ids are\n" +
	"the hash of the bytes; the old one is gone, with its paragraphs and vectors), kept as it was saved:\n" +
	"copied, or where it is (--link). A file is taken for unchanged when its size and time are those it\n" +
	"had when it was read, so nothing changed is said fast; a file touched but the same is read and\n" +
	"found the same. Files that are gone are listed, and removed with --prune. URLs are not fetched\n" +
	"again (a page can change with every visit): 'sponge add URL' saves a new version of one.\n" +
	"A killed update leaves a library that opens; run it again to finish. With --watch it goes on: each\n" +
	"change to a saved file or under a folder is saved within seconds (a burst of saves is one update),\n" +
	"new sub-folders are watched too, and Ctrl-C ends it once the save under way is done." +
	"\n\nExamples:\n\n" +
	"  sponge update\n" +
	"  sponge update --prune\n" +
	"  sponge update --watch"

type UpdateOptions struct {
	LibraryOpt
	Prune  bool `long:"prune" description:"remove the items whose files are gone (an item saved from several paths goes when all are gone)"`
	Quiet  bool `short:"q" long:"quiet" description:"print only errors"`
	Follow bool `long:"follow" description:"in the folders, follow links to files outside them too (as sponge add --follow)"`
	Watch  bool `long:"watch" description:"then keep watching the saved files and the folders, and save each change within seconds of it, until Ctrl-C"`
}

const rmAbout = "Remove items (any unique id prefix of 4+ hex digits) from the store and the index, with their\n" +
	"paragraph vectors. 'sponge update' does not add their files back from a folder; 'sponge add FILE' does." +
	"\n\nExamples:\n\n" +
	"  sponge rm 0a57\n" +
	"  sponge rm 0a57 9f3c"

type RmOptions struct {
	LibraryOpt
}

const reindexAbout = "Rebuild the index from the saved items. The store is the source of truth; the index is derived from it." +
	"\n\nExamples:\n\n" +
	"  sponge reindex\n" +
	"  sponge reindex --extract"

type ReindexOptions struct {
	LibraryOpt
	Extract bool `long:"extract" description:"first read every item again from its saved original, with this version's extractors (ids, sources, added times and titles given with --title stay)"`
	Quiet   bool `short:"q" long:"quiet" description:"print only errors and warnings: no progress and no summary"`
}

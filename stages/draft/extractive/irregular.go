package extractive

import "strings"

// irregularPast gives the past forms of English verbs that do not end in
// "-ed" their verb, so that "Who did the Dutch fight?" meets "fought
// against Spain" and "When did the war begin?" meets "The war began in
// 1939." as "stored" meets "store". A list, not a rule, as ageNouns:
// forms that are also other words ("found", "left", "ground", "saw",
// "rose", "bound", "felt", "lit", "fell", "shot", "thought", "wound",
// "lay", "read", "bore", "fed", "met") are not in it, and neither are the
// stop words' ("did", "had", "said", "won", "known"). The drafter matches
// them (terms, matchForm); search and rank do not.
var irregularPast = func() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(irregularVerbs, ";") {
		ws := strings.Fields(line)
		for _, w := range ws[1:] {
			if !stopWords[w] && !stopWords[ws[0]] {
				m[w] = ws[0]
			}
		}
	}
	return m
}()

// irregularVerb marks the verbs of irregularPast. A question's word is
// counted in the library in its own spelling only when its form is one of
// them (libraryFreqs): counting "make" with "made" made it weigh less.
var irregularVerb = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range irregularPast {
		m[v] = true
	}
	return m
}()

// irregularVerbs: each verb, then its past forms that differ from it.
const irregularVerbs = "arise arose arisen;awake awoke awoken;beat beaten;become became;begin began begun;" +
	"bend bent;bite bitten;bleed bled;blow blew blown;break broke broken;breed bred;bring brought;" +
	"build built;burn burnt;buy bought;catch caught;choose chose chosen;cling clung;creep crept;deal dealt;" +
	"dig dug;draw drew drawn;drink drank drunk;drive drove driven;eat ate eaten;fall fallen;fight fought;" +
	"flee fled;fly flew flown;forbid forbade forbidden;forget forgot forgotten;forgive forgave forgiven;" +
	"freeze froze frozen;give gave given;grow grew grown;hang hung;hear heard;hide hid hidden;hold held;" +
	"keep kept;kneel knelt;lead led;lend lent;lose lost;make made;mean meant;pay paid;ride rode ridden;" +
	"ring rang rung;rise risen;run ran;seek sought;sell sold;send sent;shake shook shaken;shine shone;" +
	"shrink shrank shrunk;sing sang sung;sink sank sunk;sleep slept;slide slid;slay slew slain;speak spoke spoken;" +
	"spend spent;spin spun;stand stood;steal stole stolen;stick stuck;sting stung;strike struck stricken;" +
	"strive strove striven;swear swore sworn;sweep swept;swim swam swum;swing swung;take took taken;" +
	"teach taught;tear tore torn;tell told;throw threw thrown;understand understood;wake woke woken;" +
	"wear wore worn;weave wove woven;weep wept;win won;withdraw withdrew withdrawn;write wrote written;" +
	"overcome overcame;overthrow overthrew overthrown;undergo underwent undergone;undertake undertook undertaken;" +
	"uphold upheld;withstand withstood;mislead misled;rebuild rebuilt;forsake forsook forsaken;go went gone;" +
	"see seen;come came;do done;get got gotten"

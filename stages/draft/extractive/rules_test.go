package extractive

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/sponge-library/sponge/jsonl"
)

// A rule's decisions, as its table test expects them.
const (
	refuses = "refuses" // a refusal rule refuses
	passes  = "passes"  // … or lets the answer be written
	drops   = "drops"   // a padding rule keeps the sentence out
	keeps   = "keeps"   // … or lets it in
	puts    = "first"   // an ordering rule shows the sentence first
	leaves  = "leaves"  // … or leaves the order as it was
	weighs  = "weighs"  // a scoring rule changes the sentence's score
	off     = "off"     // the rule is not used: the language lacks a list it needs
)

// ruleCase is one input of a rule's table test: a question in a language
// and the passages, the sentence the decision is about (a part of it) for
// a padding or ordering rule, and the decision expected. flips: turning
// the rule off changes the decision (of the rule it refines, for a
// refinement), so the rule made it.
type ruleCase struct {
	lang, question string
	passages       []*jsonl.Passage
	corpus         Corpus
	about          string
	want           string
	flips          bool
}

// decide is the rule's decision on the case under p, or off.
func decide(t *testing.T, r *Rule, c ruleCase, p Params) string {
	t.Helper()
	cands := Candidates(c.question, c.passages, &p, c.corpus)
	if len(cands) == 0 {
		t.Fatalf("%s %q: no candidate", c.lang, c.question)
	}
	lw := cands[0].weights
	if !p.uses(r, lw) {
		return off
	}
	if parent := decidedBy(r); parent != r {
		return decide(t, parent, c, p)
	}
	verdict := func(why string, yes, no string) string {
		if why != "" {
			return yes
		}
		return no
	}
	switch {
	case r.passage != nil:
		return verdict(r.passage(&refusalInput{cands: cands, lw: lw, p: &p}), refuses, passes)
	case r.keep != nil:
		_, why := r.keep(cands)
		return verdict(why, refuses, passes)
	case r.subject != nil:
		ch := newChoice(uniqueQuotes(cands), &p)
		best := func(n int) []*Candidate {
			var top []*Candidate
			for _, i := range ch.ruleOrder {
				if ch.eligible(ch.cands[i]) && len(top) < n {
					top = append(top, ch.cands[i])
				}
			}
			return top
		}
		in := &refusalInput{top: best(max(1, p.NamesTop)), typeTop: best(max(1, p.TypeSentences())), lw: lw, p: &p}
		return verdict(r.subject(in), refuses, passes)
	}
	return decideOnSentence(t, r, c, p, cands)
}

// decideOnSentence is the decision of a padding, ordering or scoring rule
// on the case's sentence (about), after the first statement the drafter
// picks with the rule off.
func decideOnSentence(t *testing.T, r *Rule, c ruleCase, p Params, cands []*Candidate) string {
	t.Helper()
	pOff := p
	r.Off(&pOff)
	without := Choose(cands, &pOff)
	ch := newChoice(uniqueQuotes(cands), &p)
	k := -1
	for i, cd := range ch.cands {
		if strings.Contains(cd.Quote, c.about) {
			k = i
		}
	}
	if k < 0 || len(without.Statements) == 0 {
		t.Fatalf("%s %q: no sentence holds %q, or nothing is written without the rule (%s)", c.lang, c.question, c.about, without.Refused)
	}
	switch {
	case r.drop != nil:
		for i, cd := range ch.cands {
			if cd == without.Statements[0] || cd.Quote == without.Statements[0].Quote {
				ch.first = ch.base[i]
			}
		}
		in := &paddingInput{ch: ch, c: ch.cands[k], score: ch.base[k], a: &Answer{Statements: without.Statements[:1]}}
		if r == ruleMost {
			in.a.Statements = without.Statements
		}
		if r.drop(in) {
			return drops
		}
		return keeps
	case r.reorder != nil:
		a := &Answer{Statements: append([]*Candidate{}, without.Statements...), Why: append([]string{}, without.Why...)}
		r.reorder(ch, a)
		if !strings.Contains(without.Statements[0].Quote, c.about) && strings.Contains(a.Statements[0].Quote, c.about) {
			return puts
		}
		return leaves
	case r.weigh != nil:
		if r.weigh(&p, ch.cands[k], p.handScore(ch.cands[k])) != p.handScore(ch.cands[k]) {
			return weighs
		}
		return leaves
	}
	t.Fatalf("rule %q has no decision", r.Name)
	return ""
}

// Each rule of the registry has its table test: inputs in several
// languages, the decision expected, and for a rule that needs a lexicon
// list, a language whose lexicon lacks it, where the rule is off.
func TestRules(t *testing.T) {
	for _, r := range rules {
		cases := ruleCases[r.Name]
		if len(cases) < 3 {
			t.Errorf("rule %q: %d cases, want at least 3 (English and two other languages)", r.Name, len(cases))
		}
		if len(r.Needs) > 0 && !hasOff(cases) {
			t.Errorf("rule %q needs lexicon lists and no case is in a language that lacks them", r.Name)
		}
		for _, c := range cases {
			if got := decide(t, r, c, DefaultParams); got != c.want {
				t.Errorf("rule %q, %s %q: %s, want %s", r.Name, c.lang, c.question, got, c.want)
				continue
			}
			if c.want == off || !c.flips {
				continue
			}
			p := DefaultParams
			r.Off(&p)
			if got := decide(t, decidedBy(r), c, p); got == c.want {
				t.Errorf("rule %q, %s %q: %s with the rule off too: the case proves nothing", r.Name, c.lang, c.question, got)
			}
		}
	}
}

// decidedBy is the rule whose decision r changes: r itself, or for a rule
// that only refines others, the rule it refines (the stems and a section's
// measure: the window rule and the passage floor).
func decidedBy(r *Rule) *Rule {
	if r.passage != nil || r.keep != nil || r.subject != nil || r.drop != nil || r.weigh != nil || r.reorder != nil {
		return r
	}
	switch {
	case r.Refines != "":
		return decidedBy(ruleNamed[r.Refines])
	case r == ruleStems:
		return ruleWindow
	case r == ruleSectionMeasure:
		return rulePassageFloor
	}
	return r
}

func hasOff(cases []ruleCase) bool {
	for _, c := range cases {
		if c.want == off {
			return true
		}
	}
	return false
}

func one(title, text string) []*jsonl.Passage { return []*jsonl.Passage{passage(1, title, text)} }

// Passages the cases share.
var (
	teaEN = one("Tea notes", "Green tea is steeped at about eighty degrees. Black tea wants boiling water. Store tea in a dry tin.")
	teaRU = one("Заметки о чае", "Зелёный чай заваривают водой около восьмидесяти градусов. Чёрный чай любит кипяток. Храните чай в сухой банке.")
	teaZH = one("茶的笔记", "绿茶的冲泡水温应该在八十度左右。红茶需要用刚烧开的水冲泡。茶叶应该存放在密封的罐子里。")
	teaBG = one("Бележки за чая", "Зеленият чай се запарва с вода от около осемдесет градуса. Черният чай иска вряща вода. Пазете чая в суха кутия.")
	teaFA = one("یادداشت\u200cهای چای", "چای سبز را با آب حدود هشتاد درجه دم می\u200cکنند. چای سیاه آب جوش می\u200cخواهد. چای را در قوطی خشک نگه دارید.")
	teaSW = one("Maelezo ya chai", "Chai ya kijani hutengenezwa kwa maji ya joto la nyuzi themanini. Chai nyeusi inataka maji yanayochemka.")
)

// Questions in languages whose lexicon lacks a list, for the off cases.
var (
	offBG = ruleCase{lang: "bg", question: "При каква температура се запарва зеленият чай?", passages: teaBG, want: off}
	offFA = ruleCase{lang: "fa", question: "چای سبز را با آب چند درجه دم می\u200cکنند؟", passages: teaFA, want: off}
	offSW = ruleCase{lang: "sw (not told: the neutral lexicon)", question: "Chai ya kijani hutengenezwa kwa joto gani?", passages: teaSW, want: off}
)

// absentLibrary is a library of 5,000 documents that holds every word
// but those holding the string.
type absentLibrary string

func (a absentLibrary) DocFreqs(terms []string) (map[string]int, int, error) {
	df := map[string]int{}
	for _, t := range terms {
		if !strings.Contains(t, string(a)) {
			df[t] = 100
		}
	}
	return df, 5000, nil
}

// two is a passage of the question's own item and one of another item.
func two(title1, text1, title2, text2 string) []*jsonl.Passage {
	other := passage(2, title2, text2)
	other.ItemID = strings.Repeat("cd", 32)
	return []*jsonl.Passage{passage(1, title1, text1), other}
}

// ruleCases are each rule's table.
var ruleCases = map[string][]ruleCase{
	"absent words": {
		{lang: "en", question: "How fast can a cheetah run?", passages: one("Running", "Running fast needs strong legs. A sprinter can run ten metres a second."), corpus: absentLibrary("cheetah"), want: refuses},
		{lang: "ru", question: "Как быстро бегает гепард?", passages: one("Бег", "Быстро бегает тот, у кого сильные ноги. Спринтер бегает десять метров в секунду."), corpus: absentLibrary("гепард"), want: refuses},
		{lang: "zh", question: "猎豹跑得多快？", passages: one("跑步", "跑得快需要有力的腿。短跑运动员一秒跑十米。"), corpus: absentLibrary("猎"), want: refuses},
		{lang: "en", question: "At what temperature is green tea steeped?", passages: teaEN, corpus: absentLibrary("cheetah"), want: passes},
	},
	"passage floor": {
		{lang: "en", question: "Why do volcanoes erupt under the sea?", passages: teaEN, want: refuses},
		{lang: "ru", question: "Почему извергаются подводные вулканы?", passages: teaRU, want: refuses},
		{lang: "zh", question: "海底火山为什么会喷发？", passages: teaZH, want: refuses},
		{lang: "en", question: "At what temperature is green tea steeped?", passages: teaEN, want: passes},
		{lang: "ru", question: "При какой температуре заваривают зелёный чай?", passages: teaRU, want: passes},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: teaZH, want: passes},
	},
	"options": {
		{lang: "en", question: "What does rsync --delete do?", passages: one("GZIP(1)", "--rsyncable When you synchronize a compressed file, this option lets rsync send only what changed."), want: refuses},
		{lang: "ru", question: "Что делает rsync --delete?", passages: one("RSYNC(1)", "--rsyncable Этот ключ позволяет rsync передавать только изменённые части архива."), want: refuses},
		{lang: "zh", question: "rsync 的 --delete 选项有什么作用？", passages: one("RSYNC(1)", "--delete 删除接收端多余的文件。rsync 会保留其他文件。"), want: passes},
		{lang: "en", question: "What does rsync --delete do?", passages: one("RSYNC(1)", "--delete This tells rsync to delete extraneous files from the receiving side."), want: passes},
	},
	"negation": {
		{lang: "en", question: "Which tea is not steeped in boiling water?", passages: one("Tea notes", "Black tea is steeped in boiling water. It is strong."), want: refuses},
		{lang: "en", question: "Which tea is not steeped in boiling water?", passages: one("Tea notes", "Green tea is never steeped in boiling water. It turns bitter."), want: passes},
		// A negation in a subordinate clause is a condition of what is
		// asked, not the asked thing (questionNegates): grep(1)'s
		// "Normally the exit status is 0 if a line is selected …" was
		// refused for "when nothing matches".
		{lang: "en", question: "What exit status does grep return when nothing matches?", passages: one("GREP(1)", "The exit status of grep is 0 if a line is selected and 1 otherwise. Other programs differ."), want: passes},
		{lang: "en", question: "Which tea is steeped in boiling water when no kettle is at hand?", passages: one("Tea notes", "Black tea is steeped in boiling water. It is strong."), want: passes},
		{lang: "en", question: "Which tea is steeped in boiling water if no kettle is at hand?", passages: one("Tea notes", "Black tea is steeped in boiling water. It is strong."), want: refuses},
		// An English question over a German item: the sentence is read
		// in its language, whose lexicon has no negation list, so the rule
		// is off for it (it read «nie» with the English list and refused).
		{lang: "en over a de item", question: "Which Oolong is not sold in Berlin or Hamburg?", passages: one("Oolong", "Der Oolong aus Taiwan wird in Berlin und Hamburg nie verkauft, weil er zu teuer ist."), want: passes},
		offBG, offFA, offSW,
	},
	"answer type": {
		{lang: "en", question: "In what year was the tea shop founded?", passages: one("The tea shop", "The tea shop was founded by two sisters. It sells green tea."), want: refuses},
		{lang: "en", question: "In what year was the tea shop founded?", passages: one("The tea shop", "The tea shop was founded in 1998 by two sisters. It sells green tea."), want: passes},
		offBG, offFA, offSW,
	},
	"spelled numbers": {
		{lang: "en", question: "How many departments does a committee typically correspond to?", passages: one("Warsaw", "Each committee typically corresponds to one (or more) of the departments of the Scottish Government. The committees meet weekly."), want: passes, flips: true},
		{lang: "en", question: "When was the old town razed to the ground by bombing raids?", passages: one("Warsaw", "Bombing raids razed the old town to the ground during the Second World War. It was rebuilt later."), want: passes, flips: true},
		offBG, offFA, offSW,
	},
	"window": {
		{lang: "en", question: "Why do green leaves turn bitter in boiling water?", passages: one("Notes",
			"Green paint dries fast. The cat sleeps all day. The road was closed. Autumn leaves fall early. The bus was late. The shop was shut. Coffee can taste bitter. The sky was grey. The train was full. Boiling eggs takes ten minutes."), want: refuses},
		{lang: "ru", question: "Почему зелёные листья горчат в кипящей воде?", passages: one("Заметки",
			"Зелёная краска сохнет быстро. Кошка спит весь день. Дорогу закрыли. Осенью листья падают рано. Автобус опоздал. Магазин был закрыт. Кофе может горчить. Небо было серым. Поезд был полон. Кипящей кастрюле нужна крышка."), want: refuses},
		{lang: "zh", question: "绿叶为什么在沸水里变苦？", passages: one("笔记",
			"绿漆干得很快。猫整天睡觉。路被封了。秋天叶子落得早。公共汽车晚了。商店关门了。咖啡会变苦。天空是灰色的。火车满了。沸水煮蛋要十分钟。"), want: refuses},
		{lang: "en", question: "At what temperature is green tea steeped?", passages: teaEN, want: passes},
		{lang: "ru", question: "При какой температуре заваривают зелёный чай?", passages: teaRU, want: passes},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: teaZH, want: passes},
	},
	// A pair of characters no item holds stands across two words of the
	// question («島寄», «寄東»; «加料» between 追加 and 料金): weighed as a
	// word the library lacks, it kept the window under MinWindow
	// («かか», «から» in "かからない").
	"unheld pairs": {
		{lang: "zh-Hant", question: "為何從關島寄東西到美國不需要額外費用？", passages: one("關島",
			"美國各地與關島之間的郵件被視作國內業務，不需要支付額外費用。島上的氣候溫暖潮濕。"), corpus: absentLibrary("寄"), want: passes, flips: true},
		{lang: "zh", question: "为什么从关岛寄东西到美国不需要额外费用？", passages: one("关岛",
			"美国各地与关岛之间的邮件被视作国内业务，不需要支付额外费用。岛上的气候温暖潮湿。"), corpus: absentLibrary("寄"), want: passes, flips: true},
		{lang: "ja", question: "なぜグアムから米国へ荷物を送るのに追加料金がかからないのですか？", passages: one("グアム",
			"グアムと米国の間の郵便は国内郵便として扱われ、追加の料金は不要である。島の気候は暖かい。"), corpus: absentLibrary("か"), want: passes, flips: true},
		// A word no item holds, written with spaces, still counts: it is a
		// word, not two characters side by side.
		{lang: "en", question: "How fast can a cheetah run across the dry open savanna?", passages: one("Notes",
			"A trained sprinter can run fast across a track. The cat sleeps all day. The road was closed. The bus was late. The shop was shut. The sky was grey. The dry open savanna is home to many lions."),
			corpus: absentLibrary("cheetah"), want: refuses},
		// Nor is a pair the library holds left out: the window lacks it.
		{lang: "zh-Hant", question: "為何從關島寄東西到美國不需要額外費用？", passages: one("關島",
			"美國各地與關島之間的郵件被視作國內業務，無須支付額外費用。島上的氣候溫暖潮濕。"), corpus: absentLibrary("東京"), want: refuses},
	},
	"names": {
		{lang: "en", question: "When did Hobart open the tea shop?", passages: one("The tea shop", "The tea shop opened in 1998. It sells green tea from Japan."), want: refuses},
		{lang: "ru", question: "Когда Хобарт открыл чайную лавку?", passages: one("Чайная лавка", "Чайная лавка открылась в 1998 году. Она продаёт зелёный чай из Японии."), want: refuses},
		{lang: "zh", question: "绿茶在2019年的价格是多少？", passages: one("绿茶", "绿茶的价格每年都在上涨。红茶比绿茶便宜。"), want: refuses},
		// The names of a question without spaces are its number, not every
		// pair of its characters ("茶在", "的時", "賣多" …, none near 1998).
		{lang: "zh-Hant", question: "綠茶在1998年的時候每斤賣多少錢？", passages: one("綠茶", "1998年，綠茶每斤賣三百元。紅茶比綠茶便宜。"), want: passes},
		{lang: "en", question: "When did Hobart open the tea shop?", passages: one("The tea shop", "Hobart opened the tea shop in 1998. It sells green tea from Japan."), want: passes},
	},
	"ordinals": {
		{lang: "en", question: "Who opened the second tea shop in the town?", passages: one("Tea shops", "Hobart opened the first tea shop in the town in 1998. It sells green tea."), want: refuses, flips: true},
		// An ordinal before a verb's past form says when, not which one.
		{lang: "en", question: "When was the tea shop first opened?", passages: one("Tea shops", "Hobart opened the tea shop in the town in 1998. It sells green tea."), want: passes},
		offBG, offFA, offSW,
	},
	"kin": {
		{lang: "en", question: "What did the Persian king build?", passages: one("Persia", "The king of Persia built a road across the empire. It ran for two thousand kilometres."), want: passes, flips: true},
		{lang: "en", question: "When did the EU ban the tea dye?", passages: one("Tea dyes", "The European Union banned the tea dye in 2005. Other countries followed."), want: passes, flips: true},
		{lang: "ru", question: "Что построил царь Персии?", passages: one("Персия", "Царь Персии построил дорогу через всю империю. Она тянулась на две тысячи километров."), want: passes},
		{lang: "zh", question: "波斯国王建造了什么？", passages: one("波斯", "波斯国王建造了一条横贯帝国的道路。它长两千公里。"), want: passes},
	},
	"swapped name": {
		{lang: "en", question: "Who won the PZPN Championship in 2000?", passages: one("Polonia Warsaw", "Polonia Warsaw managed to win the Ekstraklasa Championship in 2000. The club plays in Warsaw."), want: refuses},
		{lang: "en", question: "Who won the Ekstraklasa Championship in 2000?", passages: one("Polonia Warsaw", "Polonia Warsaw managed to win the Ekstraklasa Championship in 2000. The club plays in Warsaw."), want: passes},
		{lang: "en", question: "Under the Scotland Act of 1988, what would be set up in Edinburgh?", passages: one("Scottish Parliament", "Under the Scotland Act of 1978, an elected assembly would be set up in Edinburgh. A referendum followed."), want: refuses},
		// A typo of the question's name is no other name.
		{lang: "en", question: "How many members are on the Warsaw City Counil?", passages: one("Warsaw", "Legislative power is vested in the Warsaw City Council, which comprises 60 members."), want: passes},
		// Nor a number the sentence writes next to a word.
		{lang: "en", question: "How many Parisien Protestants were killed by 17 September?", passages: one("Huguenots", "By 17 September, almost 25,000 Protestants had been massacred in Paris alone."), want: passes},
		{lang: "ru", question: "Кто победил Монкальма у Монреаля?", passages: one("Семилетняя война", "Джеймс Вулф победил Монкальма у Квебека в 1759 году. Оба командира погибли."), want: refuses},
		{lang: "ru", question: "Кто победил Монкальма у Квебека?", passages: one("Семилетняя война", "Джеймс Вулф победил Монкальма у Квебека в 1759 году. Оба командира погибли."), want: passes},
		// An initial is the name, shortened.
		{lang: "ru", question: "Когда была основана Музыкальная школа имени Николая Андреевича Римского-Корсакова?", passages: one("Музыкальная школа",
			"Музыкальная школа имени Н. А. Римского-Корсакова основана 8 июня 1918 года как частная школа. Первоначально она располагалась на Лермонтовском проспекте."), want: passes},
		// German writes its nouns with capitals: a question's names are its numbers.
		{lang: "de", question: "Was sollte nach dem Schottland-Gesetz von 1988 in Edinburgh eingerichtet werden?", passages: one("Schottisches Parlament", "Nach dem Schottland-Gesetz von 1978 sollte in Edinburgh eine gewählte Versammlung eingerichtet werden."), want: refuses},
		// Chinese is not read word by word: its names are not compared.
		{lang: "zh", question: "绿茶在2019年的价格是多少？", passages: one("绿茶", "绿茶在2018年的价格是每斤三百元。红茶比绿茶便宜。"), want: passes},
	},
	"stems": {
		{lang: "en", question: "How did the Nixon administration negotiate with the uncooperative countries?", passages: one("Oil crisis",
			"Some countries were uncooperative in the embargo. The prices rose for a year. Queues grew at the pumps. To address this, the Nixon Administration began multilateral negotiations with the combatants."),
			corpus: docFreqs{"nixon": 5, "administration": 900, "negotiate": 40, "negotiation": 30, "uncooperative": 4, "countries": 1500, "country": 1500,
				"multilateral": 3, "combatant": 10, "address": 500, "begin": 900, "price": 300, "pump": 90}, want: passes, flips: true},
		{lang: "ru", question: "Сколько раз «Питтсбург Стилерз» побеждал в Суперкубке?", passages: one("Питтсбург Стилерз",
			"«Питтсбург Стилерз» — профессиональный клуб американского футбола. Клуб шесть раз выигрывал Суперкубок, больше всех других команд."), want: passes},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: teaZH, want: passes},
	},
	"section measure": {
		{lang: "en", question: "How long should I steep oolong?", passages: oolongPassages, corpus: oolongLibrary, want: passes, flips: true},
		offBG, offFA, offSW,
	},
	"measure scale": {
		{lang: "en", question: "How long does oolong keep?", passages: append(append([]*jsonl.Passage{}, oolongPassages...), &jsonl.Passage{Number: 6, ItemID: "tea", Title: "Brewing tea at home", Heading: "Storage", Score: 0.5,
			Text: "Keep tea in an airtight tin, away from light, heat and strong smells such as coffee or spices. Green tea keeps about six months once opened; black tea keeps a year or more."}),
			corpus: smallLibrary{"long": 2, "steep": 1, "oolong": 1, "keep": 2}, want: refuses, flips: true},
		{lang: "en", question: "How long should I steep oolong?", passages: oolongPassages, corpus: oolongLibrary, want: passes},
		{lang: "ru", question: "При какой температуре заваривают зелёный чай?", passages: teaRU, want: off},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: teaZH, want: off},
	},
	"each answer": {
		{lang: "en", question: "At what temperature is green tea steeped?", passages: two("Tea notes", "Green tea is steeped at about eighty degrees.", "Garden", "The garden has a green gate."), about: "green gate", want: drops},
		{lang: "ru", question: "При какой температуре заваривают зелёный чай?", passages: two("Заметки о чае", "Зелёный чай заваривают водой около восьмидесяти градусов.", "Сад", "В саду зелёная калитка."), about: "калитка", want: drops},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: two("茶的笔记", "绿茶的冲泡水温应该在八十度左右。", "花园", "花园的门是绿色的。"), about: "花园", want: drops},
		{lang: "en", question: "At what temperature is green tea steeped?", passages: teaEN, about: "Black tea", want: keeps},
	},
	"most statements": {
		{lang: "en", question: "How is green tea made?", passages: one("Green tea", "Green tea is made from fresh leaves. Green tea is made by steaming the leaves. Green tea is made in Japan by rolling. Green tea is made in China by pan-firing. Green tea is made dry within hours. Green tea is made without fermenting the leaves. Green tea is made by hand in small farms. Green tea is made best in spring."), about: "spring", want: drops},
		{lang: "ru", question: "Как делают зелёный чай?", passages: one("Зелёный чай", "Зелёный чай делают из свежих листьев. Зелёный чай делают, пропаривая листья. Зелёный чай делают в Японии скручиванием. Зелёный чай делают в Китае обжаркой. Зелёный чай делают сухим за несколько часов. Зелёный чай делают без ферментации листьев. Зелёный чай делают вручную на малых фермах. Зелёный чай делают лучше всего весной."), about: "весной", want: drops},
		{lang: "zh", question: "绿茶是怎么做的？", passages: one("绿茶", "绿茶是用新鲜的叶子做的。绿茶是蒸叶子做的。绿茶在日本是揉捻做的。绿茶在中国是炒青做的。绿茶是几小时内干燥做的。绿茶是不发酵叶子做的。绿茶是小农场手工做的。绿茶是春天做的最好。"), about: "春天", want: drops},
		{lang: "en", question: "At what temperature is green tea steeped?", passages: teaEN, about: "Black tea", want: keeps},
	},
	"relative score": {
		{lang: "en", question: "At what temperature is green tea steeped?", passages: teaEN, about: "Store tea", want: drops},
		{lang: "ru", question: "При какой температуре заваривают зелёный чай?", passages: teaRU, about: "Храните", want: drops},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: teaZH, about: "罐子", want: drops},
	},
	"item answer": {
		{lang: "en", question: "At what temperature is green tea steeped?", passages: two("Tea notes", "Green tea is steeped at about eighty degrees.", "Kitchen", "Green tea stains the cups."), about: "stains", want: drops},
		{lang: "ru", question: "При какой температуре заваривают зелёный чай?", passages: two("Заметки о чае", "Зелёный чай заваривают водой около восьмидесяти градусов.", "Кухня", "Зелёный чай пачкает чашки."), about: "пачкает", want: drops},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: two("茶的笔记", "绿茶的冲泡水温应该在八十度左右。", "厨房", "绿茶会弄脏杯子。"), about: "杯子", want: drops},
	},
	"same": {
		{lang: "en", question: "How is green tea steeped?", passages: two("Tea", "Green tea is steeped at eighty degrees for two minutes.", "Tea again", "Green tea is steeped at eighty degrees for about two minutes."), about: "about two", want: drops},
		{lang: "ru", question: "Как заваривают зелёный чай?", passages: two("Чай", "Зелёный чай заваривают при восьмидесяти градусах две минуты.", "Снова чай", "Зелёный чай заваривают при восьмидесяти градусах примерно две минуты."), about: "примерно", want: drops},
		{lang: "zh", question: "绿茶怎么冲泡？", passages: two("茶", "绿茶用八十度的水冲泡两分钟。", "又是茶", "绿茶用八十度的水冲泡大约两分钟。"), about: "大约", want: drops},
	},
	"other words": {
		{lang: "en", question: "How hot should green tea be?", passages: two("Tea notes", "Green tea is best at eighty degrees, hot but not boiling.", "Composting", "If the centre never rises above thirty degrees, the heap is short of greens such as green grass clippings."), about: "grass", want: drops},
		{lang: "ru", question: "Насколько горячим должен быть зелёный чай?", passages: two("Заметки о чае", "Зелёный чай лучше всего при восьмидесяти градусах, горячий, но не кипящий.", "Компост", "Если куча не нагревается, в ней мало зелёной травы и зелёных листьев."), about: "куча", want: drops},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: two("茶的笔记", "绿茶的冲泡水温应该在八十度左右。", "堆肥", "堆肥的水温太低时要多加草。"), about: "堆肥", want: drops},
	},
	"narrower": {
		{lang: "en", question: "How should I store tea?", passages: storedTea, corpus: smallLibrary{"store": 1, "tea": 2}, about: "solitude", want: drops},
		{lang: "ru", question: "Как хранить чай?", passages: []*jsonl.Passage{
			{Number: 1, ItemID: "ru", Title: "Дома", Heading: "Где хранить чай", Paragraph: 9, Score: 1, Text: "Храните чай в плотной банке, вдали от света. Зелёный чай хранится около шести месяцев."},
			{Number: 2, ItemID: "ru", Title: "Дома", Heading: "Чёрный чай", Paragraph: 7, Score: 0.97, Text: "Чай лучше пить в одиночестве."}},
			about: "одиночестве", want: drops},
		{lang: "zh", question: "茶叶怎么保存？", passages: []*jsonl.Passage{
			{Number: 1, ItemID: "zh", Title: "在家泡茶", Heading: "保存", Paragraph: 9, Score: 1, Text: "茶叶应该保存在密封的罐子里，远离阳光。绿茶开封后可以保存六个月左右。"},
			{Number: 2, ItemID: "zh", Title: "在家泡茶", Heading: "红茶", Paragraph: 7, Score: 0.97, Text: "茶叶最好一个人独自品尝。"}},
			about: "独自", want: drops},
	},
	"other scale": {
		{lang: "en", question: "How long should black tea steep?", passages: otherScalePassages(), corpus: smallLibrary{"long": 2, "steep": 1, "black": 2, "tea": 5}, about: "six months", want: drops},
		offBG, offFA, offSW,
	},
	"ranker": {
		{lang: "en", question: "At what temperature is green tea steeped?", passages: teaEN, about: "eighty", want: weighs},
		{lang: "ru", question: "При какой температуре заваривают зелёный чай?", passages: teaRU, about: "восьмидесяти", want: weighs},
		{lang: "zh", question: "绿茶的冲泡水温应该是多少度？", passages: teaZH, about: "八十度", want: weighs},
		{lang: "en (a claim, not a question)", question: "Green tea is steeped at eighty degrees", passages: teaEN, about: "eighty", want: off},
	},
	"hearsay": {
		{lang: "en", question: "Does blue light from screens keep me awake?", passages: blueLight, corpus: smallLibrary{"blue": 1, "light": 2, "screen": 1, "keep": 4, "awake": 1}, about: "People say", want: weighs},
		{lang: "en", question: "Does blue light from screens keep me awake?", passages: blueLight, corpus: smallLibrary{"blue": 1, "light": 2, "screen": 1, "keep": 4, "awake": 1}, about: "Bright light", want: leaves},
		offBG, offFA, offSW,
	},
	"unit first": {
		{lang: "en", question: "At what temperature do I bake sourdough bread?", passages: unitFirstPassages(), corpus: smallLibrary{"bake": 1, "sourdough": 1, "bread": 1, "temperature": 2}, about: "at 250 degrees", want: puts},
		offBG, offFA, offSW,
	},
	"code first": {
		{lang: "en", question: "How do I reinstall a package whose files were damaged?", passages: reinstallPassages, about: "--reinstall option", want: puts, flips: true},
		{lang: "en", question: "How do I find files whatever the case of their names?", passages: one("FIND(1)", "The patterns match the file names Foo, FOO and foo alike when their case is ignored. -iname pattern Like -name, but the match is case insensitive."), about: "-iname pattern", want: puts, flips: true},
		{lang: "en (it does not ask how to do something)", question: "Why does reinstalling a package whose files were damaged fail?", passages: reinstallPassages, about: "--reinstall option", want: leaves},
		offBG, offFA, offSW,
	},
	"option entry first": {
		{lang: "en", question: "What does curl -L do?", passages: []*jsonl.Passage{
			passage(1, "CURL(1)", "-L, --location (HTTP) If the server reports that the requested page has moved, curl -L redoes the request on the new place. When curl -L follows a redirect, curl -L keeps the method."),
			passage(2, "CURL(1)", "When curl -L follows a redirect and the request is a POST, curl -L sends the following request with a GET.")}, about: "If the server reports", want: puts},
		{lang: "ru", question: "Что делает curl -L?", passages: one("CURL(1)", "-L, --location Если сервер сообщает, что страница перемещена, curl повторяет запрос."), about: "Если сервер", want: leaves},
		{lang: "zh", question: "curl -L 有什么作用？", passages: one("CURL(1)", "-L, --location 如果服务器报告页面已移动，curl 会重新请求新地址。"), about: "如果服务器", want: leaves},
	},
	"name line": {
		{lang: "en", question: "What does the name tar stand for?", passages: []*jsonl.Passage{
			passage(1, "TAR(1)", "tar - an archiving utility"),
			passage(2, "TAR(1)", "The archive can be a regular file or a device (a tape drive, hence the name of the program, which stands for tape archiver).")},
			about: "archiving utility", want: drops, flips: true},
		{lang: "en", question: "Where does ssh-keygen put the key pair it makes?", passages: []*jsonl.Passage{
			passage(1, "ssh-keygen(1)", "ssh-keygen — OpenSSH authentication key utility"),
			passage(2, "ssh-keygen(1)", "The key pair is stored in ~/.ssh/id_rsa and ~/.ssh/id_rsa.pub.")},
			about: "authentication key utility", want: drops, flips: true},
		{lang: "en", question: "What is tar?", passages: []*jsonl.Passage{
			passage(1, "TAR(1)", "tar - an archiving utility"),
			passage(2, "TAR(1)", "The archive can be a regular file or a device (a tape drive, hence the name of the program, which stands for tape archiver).")},
			about: "archiving utility", want: keeps},
		offBG, offFA, offSW,
	},
	"definition first": {
		{lang: "en", question: "What is a sourdough starter?", passages: []*jsonl.Passage{
			passage(1, "Sourdough notes", "Notes from a year of baking a loaf every weekend. The recipe is simple; the timing is everything."),
			passage(2, "Sourdough notes", "100 g active starter"),
			passage(3, "Sourdough notes", "If a grey liquid collects on top, the starter is hungry, not dead: pour the liquid off and feed it."),
			passage(4, "Sourdough notes", "A starter is flour and water in which wild yeast and lactic acid bacteria live together. Feed it equal weights of flour and water once a day at room temperature.")},
			about: "A starter is flour", want: puts},
		offBG, offFA, offSW,
	},
	"join back": {
		{lang: "en", question: "What temperature kills weed seeds in a compost heap?", passages: one("Hot composting",
			"A hot heap is built all at once from a large batch of mixed material. Within two or three days the centre reaches fifty-five to sixty-five degrees Celsius. At that temperature weed seeds and most plant diseases are killed."),
			corpus: docFreqs{"temperature": 30, "kill": 40, "weed": 10, "seed": 20, "compost": 15, "heap": 12}, about: "Within two or three days", want: puts},
		{lang: "zh-Hant", question: "誰的喜劇以米南德的風俗喜劇為藍本改作？", passages: one("古羅馬文學",
			"羅馬共和時代留下了許多劇本。普勞圖斯是共和時代最著名的劇作家。他的喜劇主要以米南德的風俗喜劇為藍本改作，諷刺羅馬社會。"),
			about: "普勞圖斯", want: puts},
		{lang: "de", question: "Wann trat der Vertrag über die Wirtschaftsgemeinschaft in Kraft?", passages: one("Römische Verträge",
			"Die Verhandlungen dauerten zwei Jahre. Im März 1957 unterzeichneten sechs Staaten in Rom den Vertrag über die Wirtschaftsgemeinschaft. Dieser trat am 1. Januar 1958 in Kraft."),
			about: "Im März 1957", want: puts},
		offBG, offFA, offSW,
	},
}

// otherScalePassages are TestOtherScale's, as rank gives them for "How
// long should black tea steep?".
func otherScalePassages() []*jsonl.Passage {
	storage := &jsonl.Passage{Number: 6, ItemID: "tea", Title: "Brewing tea at home", Heading: "Storage", Score: 0.5,
		Text: "Keep tea in an airtight tin, away from light, heat and strong smells such as coffee or spices. Green tea keeps about six months once opened; black tea keeps a year or more."}
	var ps []*jsonl.Passage
	for i, q := range []*jsonl.Passage{oolongPassages[1], oolongPassages[2], storage, oolongPassages[0]} {
		c := *q
		c.Score = 1 - 0.1*float64(i)
		ps = append(ps, &c)
	}
	return ps
}

// unitFirstPassages are the demo's sourdough page, as TestUnitFirst has them.
// reinstallPassages are sentences of the Debian Administrator's Handbook's
// paragraph on reinstalling a package (sect.apt-get): the one that
// restates the question comes before the one that writes the option.
var reinstallPassages = one("6.2. aptitude, apt-get, and apt Commands", "The easiest way to retrieve these files is to reinstall the affected package. "+
	"Unfortunately, the packaging system finds that the latter is already installed and politely refuses to reinstall it; to avoid this, use the --reinstall option of the apt and apt-get commands.")

func unitFirstPassages() []*jsonl.Passage {
	ps := []*jsonl.Passage{
		{Number: 1, Score: 1, Heading: "Sourdough notes", Text: "Notes from a year of baking a loaf every weekend. The recipe is simple; the timing is everything."},
		{Number: 2, Score: 0.8421, Heading: "Dough", Text: "500 g bread flour"},
		{Number: 3, Score: 0.7518, Heading: "The starter", Text: "A starter is flour and water in which wild yeast and lactic acid bacteria live together. Feed it equal weights of flour and water once a day at room temperature."},
		{Number: 4, Score: 0.7333, Heading: "Baking", Text: "Shape the loaf, let it rise overnight in the fridge, and bake it straight from the cold in a preheated cast-iron pot at 250 degrees: twenty minutes with the lid on, then twenty-five without. Let it cool for an hour before cutting, or the crumb turns gummy."},
	}
	for _, p := range ps {
		p.ItemID, p.Title = strings.Repeat("cd", 32), "Sourdough notes"
	}
	return ps
}

// --explain says of each statement what the rules saw in it, and nothing
// they did not: a word it says the sentence holds as the answer's kind ("a
// year, «1998»") is in the quote and is of that kind, and each of the
// question's words it names is in the quote or in the heading or title it
// names. Issue 40 saw "a date or year" said of a sentence whose only number
// was a section's "2.1.1"; "five" was "a word with digits".
func TestExplainSaysWhatTheRuleSaw(t *testing.T) {
	kind := regexp.MustCompile(`(a date or year|a time|a year|a month|a number|a word with digits), «([^»]+)»`)
	held := regexp.MustCompile(`it holds ((?:«[^»]+»(?:, | and )?)+)`)
	for _, c := range []struct {
		question string
		passages []*jsonl.Passage
	}{
		{"In what year was the live system rewritten?", one("Debian Live Manual",
			"Section 2.1.1 says why the live system was rewritten from scratch. The new live system boots faster. The team rewrote it in 2009.")},
		{"In what year was the live system rewritten?", one("Debian Live Manual",
			"Section 2.1.1 says why the live system was rewritten from scratch. The new live system boots faster than the old one.")},
		{"When did the tea shop open?", one("The tea shop", "The tea shop opened in May 1998. It sells green tea from Japan.")},
		{"How many infusions does oolong give?", oolongPassages},
		{"At what temperature is green tea steeped?", teaEN},
		{"绿茶的冲泡水温应该是多少度？", teaZH},
	} {
		p := DefaultParams
		a := Choose(Candidates(c.question, c.passages, &p, nil), &p)
		for i, st := range a.Statements {
			why := a.Why[i]
			for _, m := range kind.FindAllStringSubmatch(why, -1) {
				if !strings.Contains(st.Quote, m[2]) {
					t.Errorf("%q: --explain says %q of a statement that does not hold it: %q", c.question, m[0], st.Quote)
				}
				if (m[1] == "a year" || m[1] == "a date or year") && !isYear(m[2]) && !isMonth(m[2]) ||
					m[1] == "a word with digits" && !strings.ContainsFunc(m[2], unicode.IsDigit) {
					t.Errorf("%q: --explain calls «%s» %s: %q", c.question, m[2], m[1], why)
				}
			}
			if m := held.FindStringSubmatch(why); m != nil {
				said := strings.Join([]string{st.Quote, st.heading, st.title, st.answers}, "\n")
				has := map[string]bool{}
				for _, tm := range terms(said) {
					has[tm] = true
				}
				for _, w := range regexp.MustCompile(`«([^»]+)»`).FindAllStringSubmatch(m[1], -1) {
					for _, tm := range terms(w[1]) {
						if !has[tm] && !strings.Contains(said, w[1]) {
							t.Errorf("%q: --explain says the statement holds «%s»: %q", c.question, w[1], st.Quote)
						}
					}
				}
			}
		}
	}
}

// --explain says the truth of the answer-type rule's language (issue 40):
// German has asks-time, which the rule does not refuse with (English's
// asks-when only, by measurement), so the line must not say German has no
// list; Bulgarian has neither.
func TestRulesOffNamesTheList(t *testing.T) {
	for _, c := range []struct{ question, want string }{
		{"Wann wurde der Teeladen gegründet?", `rule "answer type" off: it refuses only with an asks-when list, and language de has asks-time, which gives the learned ranker the answer type`},
		{"При каква температура се запарва зеленият чай?", `rule "answer type" off: no asks-when list for language bg`},
	} {
		lines := RulesOff(c.question, &DefaultParams)
		if !slices.Contains(lines, c.want) {
			t.Errorf("RulesOff(%q) = %q, want a line %q", c.question, lines, c.want)
		}
	}
}

// A question of one or two weighed words in Korean or Russian (their
// lexicons' trait "few-question-words") has the lower passage floor
// MinAnswerFew (issue 40: "콜럼버스는 몇 년도에 사망했는가?" and "Когда
// был основан Константинополь?" were refused with half of their two
// words held); a longer one, and English or German, keep MinAnswer.
func TestFloorOfFewWords(t *testing.T) {
	p := DefaultParams
	for _, c := range []struct {
		question string
		want     float64
	}{
		{"콜럼버스는 몇 년도에 사망했는가?", p.MinAnswerFew},
		{"Когда был основан Константинополь?", p.MinAnswerFew},
		{"한국의 여성가족부는 몇 년도에 설립되었는가?", p.MinAnswer},
		{"Когда была создана капелла святого Зенона?", p.MinAnswer},
		{"When was Constantinople founded?", p.MinAnswer},
		{"Wann wurde Konstantinopel gegründet?", p.MinAnswer},
	} {
		lw := newLibraryWeights(c.question, nil, nil, p.PriorDocs)
		if got := floorOf(lw, &p); got != c.want {
			t.Errorf("floorOf(%q) = %.2f (words %q), want %.2f", c.question, got, lw.order, c.want)
		}
	}
}

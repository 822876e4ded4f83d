package lang

import "testing"

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		text string
		want Tag
	}{
		{"The kettle is boiling and the tea is ready to steep for three minutes.", "en"},
		{"Der Wasserkocher kocht, und der Tee zieht drei Minuten lang in der Kanne.", "de"},
		{"Чайник закипел, и чай заваривается три минуты в заварочном чайнике.", "ru"},
		{"الشاي الأخضر يحتاج إلى ماء ساخن لمدة ثلاث دقائق قبل أن يشرب.", "ar"},
		{"绿茶需要用八十度的水冲泡三分钟。", "zh"},
		{"綠茶需要用八十度的水沖泡三分鐘。", "zh"},
		{"緑茶は八十度のお湯で三分間淹れます。", "ja"},
		{"녹차는 80도의 물에 3분 동안 우려냅니다.", "ko"},
		{"ชาเขียวต้องชงด้วยน้ำร้อนแปดสิบองศาสามนาที", "th"},
		{"সবুজ চা আশি ডিগ্রি জলে তিন মিনিট ভিজিয়ে রাখতে হয়।", "bn"},
		{"గ్రీన్ టీని ఎనభై డిగ్రీల నీటిలో మూడు నిమిషాలు నానబెట్టాలి.", "te"},
		{"हरी चाय को अस्सी डिग्री पानी में तीन मिनट तक भिगोना चाहिए।", "hi"},
		{"Το πράσινο τσάι θέλει νερό στους ογδόντα βαθμούς.", "el"},
		{"La bouilloire chauffe et le thé infuse pendant trois minutes dans la théière.", "fr"},
		{"El agua hierve y el té reposa tres minutos en la tetera.", "es"},
		{"L'acqua bolle e il tè resta in infusione per tre minuti nella teiera.", "it"},
		{"A água ferve e o chá fica em infusão durante três minutos no bule.", "pt"},
		{"Het water kookt en de thee trekt drie minuten in de pot.", "nl"},
		{"Чайник закипів, і чай настоюється три хвилини.", "uk"},
		{"Чайникът завря и чаят се запарва три минути в каната.", "bg"},
		{"چای سبز را باید سه دقیقه در آب داغ دم کرد.", "fa"},
		{"سبز چائے کو تین منٹ تک گرم پانی میں رکھیں۔", "ur"},
		{"正式名称は英語で Commonwealth of Dominica（コーマンウェルス・オヴ・ドミニーカ）。", "ja"},
		{"", Unknown},
		{"12 34 56 !!", Unknown},
	} {
		if got := Detect(c.text); got != c.want {
			t.Errorf("Detect(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestDetectQuestion(t *testing.T) {
	for _, c := range []struct {
		text string
		want Tag
	}{
		{"Wie viele Einwohner hat Berlin?", "de"},
		{"Wer war Kant?", "de"},
		{"Who was Kant?", "en"},
		{"How long should green tea steep?", "en"},
		{"Кто написал «Войну и мир»?", "ru"},
		{"Сколько лет Москве?", "ru"},
		{"北京有多少人口？", "zh"},
		{"ชาเขียวต้องชงกี่นาที", "th"},
		{"সবুজ চা কত মিনিট ভিজিয়ে রাখতে হয়?", "bn"},
		{"كم عدد سكان القاهرة؟", "ar"},
		{"من هم الدروز؟", "ar"},
		{"Когда вышла игра Sonic the Hedgehog 3?", "ru"},
		{"Кто основал Одессу?", "ru"},
		{"「TAIPEI 101 MALL」在哪一年開幕營運?", "zh"},
		{"Google検索の読みは？", "ja"},
		{"What causes radioactive decay?", "en"},
		{"Wie lange dauerte der Bau des Camp de Les Corts", "de"},
		{"Combien de temps faut-il pour infuser le thé vert ?", "fr"},
		{"¿Cuánto tiempo hay que dejar reposar el té verde?", "es"},
		{"Quanto tempo deve ficare in infusione il tè verde?", "it"},
	} {
		if got := DetectQuestion(c.text); got != c.want {
			t.Errorf("DetectQuestion(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

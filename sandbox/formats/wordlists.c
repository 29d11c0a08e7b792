#include "config.h"

#include "wordlists.h"

#include <strings.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const words_en[] = {
	"the", "meeting", "starts", "with", "a", "short", "review", "of", "last", "quarter",
	"we", "need", "to", "talk", "about", "budget", "and", "planning", "for", "next",
	"year", "our", "team", "has", "been", "working", "on", "new", "product", "launch",
	"customers", "really", "like", "it", "so", "think", "should", "move", "forward", "today",
};
static const char *const comments_en[] = { "Check this figure", "Follow up with the team", "Quote for the report" };
static const char *const words_fr[] = {
	"la", "réunion", "commence", "avec", "une", "courte", "revue", "du", "trimestre", "dernier",
	"nous", "devons", "parler", "budget", "et", "prévisions", "pour", "l'année", "prochaine", "équipe",
	"a", "travaillé", "sur", "nouveau", "produit", "lancement", "clients", "aiment", "beaucoup", "ça",
	"donc", "je", "pense", "qu'il", "faut", "avancer", "aujourd'hui", "très", "bien", "déjà",
};
static const char *const comments_fr[] = { "Vérifier ce chiffre", "Relancer l'équipe", "Citation pour le rapport" };
static const char *const words_de[] = {
	"die", "Besprechung", "beginnt", "mit", "einem", "kurzen", "Rückblick", "auf", "das", "Quartal",
	"wir", "müssen", "über", "Budget", "und", "Planung", "für", "nächste", "Jahr", "sprechen",
	"unser", "Team", "hat", "an", "neuen", "Produkt", "gearbeitet", "Kunden", "mögen", "es",
	"sehr", "also", "denke", "ich", "sollten", "heute", "weitermachen", "größer", "schön", "Straße",
};
static const char *const comments_de[] = { "Zahl prüfen", "Mit dem Team klären", "Zitat für den Bericht" };
static const char *const words_es[] = {
	"la", "reunión", "empieza", "con", "una", "breve", "revisión", "del", "último", "trimestre",
	"tenemos", "que", "hablar", "presupuesto", "y", "planificación", "para", "el", "año", "próximo",
	"nuestro", "equipo", "ha", "trabajado", "en", "nuevo", "producto", "lanzamiento", "clientes", "gusta",
	"mucho", "así", "creo", "debemos", "avanzar", "hoy", "señor", "también", "mañana", "niño",
};
static const char *const comments_es[] = { "Revisar esta cifra", "Hablar con el equipo", "Cita para el informe" };
static const char *const words_it[] = {
	"la", "riunione", "inizia", "con", "una", "breve", "revisione", "del", "trimestre", "scorso",
	"dobbiamo", "parlare", "di", "bilancio", "e", "pianificazione", "per", "anno", "prossimo", "squadra",
	"ha", "lavorato", "sul", "nuovo", "prodotto", "clienti", "piace", "molto", "quindi", "penso",
	"città", "perché", "già", "più", "oggi", "bene", "andare", "avanti", "così", "tutto",
};
static const char *const comments_it[] = { "Controllare questa cifra", "Sentire la squadra", "Citazione per il rapporto" };
static const char *const words_pt[] = {
	"a", "reunião", "começa", "com", "uma", "breve", "revisão", "do", "último", "trimestre",
	"precisamos", "falar", "sobre", "orçamento", "e", "planejamento", "para", "o", "ano", "próximo",
	"nossa", "equipe", "trabalhou", "no", "novo", "produto", "lançamento", "clientes", "gostam", "muito",
	"então", "acho", "devemos", "avançar", "hoje", "não", "também", "coração", "informação", "está",
};
static const char *const comments_pt[] = { "Verificar este número", "Falar com a equipe", "Citação para o relatório" };
static const char *const words_nl[] = {
	"de", "vergadering", "begint", "met", "een", "kort", "overzicht", "van", "het", "kwartaal",
	"we", "moeten", "praten", "over", "budget", "en", "planning", "voor", "volgend", "jaar",
	"ons", "team", "heeft", "gewerkt", "aan", "nieuw", "product", "klanten", "vinden", "mooi",
	"dus", "ik", "denk", "dat", "verder", "gaan", "vandaag", "goed", "heel", "zeker",
};
static const char *const comments_nl[] = { "Controleer dit cijfer", "Navragen bij het team", "Citaat voor het verslag" };
static const char *const words_ja[] = {
	"今日", "は", "会議", "の", "最初", "に", "前期", "を", "振り返り", "ます",
	"予算", "と", "計画", "について", "話し", "合い", "たい", "です", "チーム", "新しい",
	"製品", "が", "お客様", "とても", "気に入って", "います", "だから", "進める", "べき", "思います",
};
static const char *const comments_ja[] = { "この数字を確認", "チームに確認", "報告書に引用" };
static const char *const words_zh[] = {
	"今天", "的", "会议", "首先", "回顾", "上", "季度", "我们", "需要", "讨论",
	"预算", "和", "明年", "计划", "团队", "一直", "在", "开发", "新", "产品",
	"客户", "非常", "喜欢", "所以", "我", "认为", "应该", "继续", "推进", "好",
};
static const char *const comments_zh[] = { "核对这个数字", "与团队跟进", "报告引用" };
static const char *const words_la[] = {
	"lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
	"eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
	"ad", "minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip",
};
static const char *const comments_la[] = { "Nota bene", "Vide infra", "Quod erat demonstrandum" };

#define LIST(c, cjk, w, cm) { c, cjk, w, N(w), cm, N(cm) }
static const struct sb_wordlist lists[] = {
	LIST("en", 0, words_en, comments_en), LIST("fr", 0, words_fr, comments_fr),
	LIST("de", 0, words_de, comments_de), LIST("es", 0, words_es, comments_es),
	LIST("it", 0, words_it, comments_it), LIST("pt", 0, words_pt, comments_pt),
	LIST("nl", 0, words_nl, comments_nl), LIST("ja", 1, words_ja, comments_ja),
	LIST("zh", 1, words_zh, comments_zh), LIST("cmn", 1, words_zh, comments_zh),
	LIST("yue", 1, words_zh, comments_zh),
};
static const struct sb_wordlist fallback = LIST("", 0, words_la, comments_la);

const struct sb_wordlist *sb_wordlist_for(const char *language, int *found)
{
	*found = 0;
	if (!language)
		return &fallback;
	size_t n = strcspn(language, "-_");
	for (size_t i = 0; i < N(lists); i++) {
		if (strlen(lists[i].code) == n && strncasecmp(lists[i].code, language, n) == 0) {
			*found = 1;
			return &lists[i];
		}
	}
	return &fallback;
}

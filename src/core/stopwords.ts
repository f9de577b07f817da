/**
 * Question words and function words per language, dropped from natural-language queries
 * before they go to the index. Written folded (lower case, no accents), as `fold` produces.
 */
const LISTS: Record<string, string> = {
  en: 'a an the and or but of to in on at for from by with about as is are was were be been being do does did what which who whom whose when where why how i me my you your we our it its this that these those there here can could should would will shall may might must not no tell explain show find give any some all me please essay essays post posts article articles write wrote written',
  es: 'el la los las un una unos unas y o pero de del al a en con por para sobre que quien quienes cual cuales cuando donde por que como es son era fue ser esta estan este esta estos estas eso hay me mi tu su nos se lo le les puedes dime explica ensayo ensayos articulo',
  fr: 'le la les un une des et ou mais de du au aux a en dans sur pour par avec que qui quoi quel quelle quels quelles quand ou pourquoi comment est sont etait etre ce cet cette ces il elle on je tu nous vous me moi mon ma mes ne pas y dis explique essai essais article',
  de: 'der die das den dem des ein eine einen einem einer und oder aber von zu zum zur in im an am auf fur mit uber als was wer wen wem wessen wann wo warum wie welche welcher welches ist sind war waren sein es ich du wir ihr sie mir mich mein dein nicht kein bitte erklare essay essays artikel',
  'pt-br': 'o a os as um uma uns umas e ou mas de do da dos das ao em no na nos nas com por para sobre que quem qual quais quando onde por que como e sao era foi ser este esta isso ha me meu minha voce seu sua nos se lhe diga explique ensaio ensaios artigo',
  id: 'yang dan atau tetapi dari ke di pada untuk dengan oleh tentang sebagai adalah ialah itu ini apa siapa kapan dimana mana mengapa kenapa bagaimana apakah saya aku kamu anda kami kita dia mereka tidak bukan tolong jelaskan esai artikel',
  tr: 've veya ama ile icin gibi bir bu su o ne kim kimi nerede neden nicin nasil hangi mi mu midir nedir var yok ben sen biz siz onlar benim senin lutfen anlat acikla deneme denemeler makale',
  vi: 'va hoac nhung cua cho trong tren voi ve nhu la thi mot nhung cac cai nay do kia gi ai nao khi nao o dau tai sao vi sao the nao bao nhieu co khong toi ban chung ta ho hay xin giai thich bai luan viet',
  ru: 'и или но в во на с со к ко по о об от до из за для при это этот эта эти то тот та те что кто как где когда почему зачем какой какая какие ли не нет я ты мы вы он она они мне меня мой твой расскажи объясни эссе статья',
  ar: 'في من الى على عن مع و او ثم ان هو هي هم هذا هذه ذلك تلك ما ماذا من متى اين لماذا كيف هل اي التي الذي الذين كان كانت يكون لا لم لن انا انت نحن قل اشرح مقال مقاله',
  hi: 'और या लेकिन का की के को में पर से तक लिए साथ बारे है हैं था थी थे हो यह वह ये वे क्या कौन कब कहाँ कहां क्यों कैसे कौनसा मैं तुम आप हम मुझे मेरा नहीं बताओ बताइए समझाओ निबंध लेख',
  zh: '的 了 和 与 或 是 在 有 我 你 他 她 它 我们 你们 他们 这 那 这个 那个 什么 谁 哪 哪里 哪个 为什么 怎么 怎样 如何 吗 呢 吧 请 告诉 解释 关于 文章 随笔',
  ja: 'の に は を が と で も へ や から まで より か な ね よ これ それ あれ この その あの 何 なに 誰 どこ いつ なぜ どう どうして どの どんな です ます ください 教え 説明 について エッセイ 記事',
  ko: '이 가 은 는 을 를 의 에 에서 와 과 도 로 으로 그리고 또는 하지만 무엇 뭐 누구 어디 언제 왜 어떻게 어떤 무슨 입니까 인가요 나요 알려 주세요 설명 에세이 글',
};

const SETS = new Map(Object.entries(LISTS).map(([lang, words]) => [lang, new Set(words.split(' '))]));

export function stopWords(lang: string): ReadonlySet<string> {
  return SETS.get(lang) ?? new Set();
}

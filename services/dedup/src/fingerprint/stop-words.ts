/**
 * The most frequent words of the languages we see most, dropped before fingerprinting: they say
 * nothing about what a text is about, and with squared weights they would dominate the SimHash.
 * One union list, so a reprint whose `lang` is missing or different gets the same tokens; an
 * English content word that is a German function word ("die") is a small loss.
 */
const LISTS = [
  // English
  'a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each even few for from further had has have having he her here hers herself him himself his how however i if in into is it its itself just least less let like made make many may me might more most much must my myself never new no nor not now of off often on once one only or other our ours out over own per rather s said same says she should since so some still such t than that the their theirs them themselves then there these they this those though through thus to too under until up upon us very via was we were what when where whether which while who whom whose why will with within without would yet you your yours',
  // German
  'aber als am an auch auf aus bei bin bis bist da dann das dass dem den der des die dies doch dort du durch ein eine einem einen einer eines er es für hat hatte ich ihr im in ist ja kann mit nach nicht noch nur oder sich sie sind so über um und uns von vor war wie wir wird zu zum zur',
  // French
  'au aux avec ce ces cette dans de des du elle en est et il ils je la le les leur lui mais me même ne nous on ou par pas plus pour qu que qui sa se ses son sont sur ta te tu un une vous',
  // Spanish and Portuguese
  'al como con da das de del do dos el ella em en es esta este fue la las lo los mais mas na no nos o os para pero por que se ser sin sobre son su sus um uma una uno y',
  // Italian and Dutch
  'che chi con da del della di e gli ha il in la le lo nel non per più sono su un una dat de een en het hij ik in is met niet om op te van voor was wat ze zijn',
  // Chinese (segments Intl.Segmenter returns for function words)
  '的 了 是 在 和 有 也 就 不 都 而 及 与 这 那 我 你 他 她 它 们 个 上 下 中 为 以 之 于 把 被 等 对 将 还 又 或 并 但 从 到 说 着 给 让 很 没有 我们 他们 一个 这个 那个 因为 所以 如果 已经 可以 没 其 该 此',
  // Japanese (particles, copulas and auxiliaries as segmented)
  'の に は を た が で て と し れ さ ある いる も な こと として い から まで や など なっ ない この その あの よう また もの という あり ます です でし だ れる られ する',
];

export const STOP_WORDS: ReadonlySet<string> = new Set(LISTS.flatMap((list) => list.split(' ')));

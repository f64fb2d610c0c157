import type { CharsetName } from '../model/web-model.js';

/** Real text in the languages each legacy encoding is used for; every sentence encodes losslessly. */
export interface NativeText {
  lang: string;
  title: string;
  sentences: string[];
}

const SIMPLIFIED_CHINESE: NativeText = {
  lang: 'zh-CN',
  title: '铁路协会通讯',
  sentences: [
    '今天上午，市图书馆举办了一场关于城市历史的讲座，吸引了许多市民参加。',
    '天气预报显示，本周末将有小雨，气温略有下降，请大家注意保暖。',
    '铁路协会的老会员们回忆起五十年前第一次乘坐蒸汽火车的情景。',
    '新修的河边公园已经对外开放，孩子们在草地上放风筝。',
    '这家小面馆的牛肉面味道鲜美，每天中午都排起长队。',
    '志愿者们在车站帮助旅客搬运行李，得到了大家的称赞。',
  ],
};

const TRADITIONAL_CHINESE: NativeText = {
  lang: 'zh-TW',
  title: '鐵道協會通訊',
  sentences: [
    '臺北市立圖書館今天舉辦古籍展覽，吸引許多讀者前往參觀。',
    '颱風過後，鐵路局派員檢查軌道，確保列車能夠安全行駛。',
    '這間老茶行已經經營了八十年，每天都有熟客來買烏龍茶。',
    '學生們在夜市品嚐小吃，一邊聊天一邊散步。',
  ],
};

const JAPANESE: NativeText = {
  lang: 'ja',
  title: '鉄道愛好会だより',
  sentences: [
    '東京駅の近くに新しい図書館が開館し、初日から多くの人が訪れました。',
    '週末は天気が崩れる見込みなので、傘を忘れずにお持ちください。',
    '鉄道愛好会の会員は、古い蒸気機関車の写真を大切に保管しています。',
    'この町の和菓子屋では、春になると桜餅がよく売れます。',
    '駅前の商店街では毎年夏に盆踊り大会が開かれます。',
    'カタカナとひらがなを混ぜた文章も正しく表示されるはずです。',
  ],
};

const FRENCH: NativeText = {
  lang: 'fr',
  title: 'Société régionale du rail',
  sentences: [
    'L’été dernier, nous avons visité Besançon et goûté une crème brûlée délicieuse.',
    'Le billet coûte 12 € — réservez dès aujourd’hui pour la fête de Noël.',
    'Œuvres d’art, cœur de la ville : le musée rouvre ses portes après trois ans de travaux.',
    'À la gare, les voyageurs pressés achètent un café et un croissant.',
  ],
};

const GERMAN: NativeText = {
  lang: 'de',
  title: 'Regionaler Eisenbahnverein',
  sentences: [
    'Die Straßenbahn fährt ab März wieder über die Brücke am Fluss.',
    'Größere Änderungen am Fahrplan wurden für Anfang Mai angekündigt.',
    'Für Kinder unter sechs Jahren ist der Eintritt frei – Erwachsene zahlen 8 €.',
    'Im Museum können Besucher eine über hundert Jahre alte Dampflok bestaunen.',
  ],
};

export function nativeTextFor(charset: CharsetName, lang: 'fr' | 'de' = 'fr'): NativeText {
  switch (charset) {
    case 'gbk':
    case 'gb18030':
      return SIMPLIFIED_CHINESE;
    case 'big5':
      return TRADITIONAL_CHINESE;
    case 'shift_jis':
      return JAPANESE;
    case 'windows-1252':
      return lang === 'de' ? GERMAN : FRENCH;
  }
}

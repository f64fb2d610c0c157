/** Per-request template churn on noisy hosts: never part of the main content. */
export interface Noise {
  timestamp: string;
  visit: number;
  ad: string;
  related: { href: string; text: string }[];
}

const ADS = [
  'Switch your energy plan today and save on winter bills.',
  'Weekend sale: two coffees for the price of one at Harbor Roasters.',
  'Learn a language in ten minutes a day. Try it free.',
  'New in town? Compare moving companies near you.',
  'Subscribe now and get the print edition delivered at dawn.',
];

export function pickAd(visit: number): string {
  return ADS[visit % ADS.length] as string;
}

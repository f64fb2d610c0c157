import { createPdf } from '../files/pdf-file.js';
import { createPng } from '../files/png-file.js';
import { createSitemapResource } from '../files/sitemap-file.js';
import { staticFile } from '../files/static-file.js';
import { pickSameHostForm } from '../model/href-forms.js';
import {
  addPage,
  addResource,
  createHost,
  fixedContent,
  makeLink,
  pickChangeRate,
  proseContent,
  standardPage,
} from '../model/page-kit.js';
import type { Content, Link, PageSpec } from '../model/web-model.js';
import { createRandom } from '../seeded-random.js';
import { writeTitle } from '../text/prose.js';
import type { FullBuildContext, HostBuild } from './full-context.js';

const CATEGORIES = ['tools', 'garden', 'kitchen', 'lighting'] as const;

/** Shop: noisy template, categories and products, non-HTML files, errors, a cross-host redirect. */
export function buildShopHost(ctx: FullBuildContext): HostBuild {
  const { seed } = ctx;
  const origin = ctx.origins.shop;
  const host = createHost('shop', origin, { noise: true, validators: false });
  const at = (path: string) => ({ origin, path });
  const productCount = Math.max(12, ctx.pagesPerHost - 7);
  const products = Array.from({ length: productCount }, (_, i) => i + 1);
  const name = (n: number) => writeTitle(createRandom(seed, 'product-name', n));
  const categoryOf = (n: number) => CATEGORIES[n % CATEGORIES.length] as string;
  const price = (n: number) => 5 + ((n * 7919) % 200);

  const chrome = (path: string): Link[] => [
    makeLink(at(path), at('/'), 'Shop home', { placement: 'nav' }),
    ...CATEGORIES.map((c) => makeLink(at(path), at(`/category/${c}`), c, { placement: 'nav' })),
    makeLink(at(path), at('/cart'), 'Cart', { placement: 'nav' }),
    makeLink(at(path), at('/catalog.pdf'), 'Catalog (PDF)', { placement: 'footer' }),
  ];
  const page = (path: string, title: string, content: Content, main: Link[], extra: Partial<PageSpec> = {}): PageSpec =>
    standardPage({ title, template: 'shop', content, links: [...chrome(path), ...main], ...extra });

  addPage(
    host,
    '/',
    page('/', 'Tinker & Co.', proseContent(seed, 'shop:home', 1, 1), [
      ...products.slice(0, 8).map((n) => makeLink(at('/'), at(`/product/${n}`), name(n))),
      makeLink(at('/'), at('/deals'), "Today's deals"),
      makeLink(at('/'), at('/images/logo.png'), 'Our logo'),
      makeLink(at('/'), at('/api/products.json'), 'Product data (JSON)'),
      makeLink(at('/'), at('/blog'), 'Read our blog'),
      makeLink(at('/'), at('/order-form.php'), 'Order by form'),
      makeLink(at('/'), at('/reviews'), 'Customer reviews'),
      makeLink(at('/'), at('/api/stock'), 'Stock levels'),
    ]),
  );

  for (const category of CATEGORIES) {
    const path = `/category/${category}`;
    const r = createRandom(seed, 'shop-category-links', category);
    const members = products.filter((n) => categoryOf(n) === category);
    const main = members.map((n) => makeLink(at(path), at(`/product/${n}`), name(n), { form: pickSameHostForm(r) }));
    main.push(makeLink(at(path), at(`${path}?sort=price`), 'Sort by price'));
    if (category === 'tools') main.push(makeLink(at(path), at(`${path}?page=2&view=grid`), 'Page 2 (grid)'));
    addPage(
      host,
      path,
      page(path, `Category: ${category}`, proseContent(seed, `shop:category:${category}`, 0.3, 1), main),
    );
  }
  addPage(
    host,
    '/category/tools?page=2&view=grid',
    page(
      '/category/tools?page=2&view=grid',
      'Category: tools, page 2',
      fixedContent('shop:tools:2', ['More tools, shown as a grid.']),
      [],
    ),
  );

  for (const n of products) {
    const path = `/product/${n}`;
    const main = [
      makeLink(at(path), at(`/category/${categoryOf(n)}`), `All ${categoryOf(n)}`, { form: 'parent' }),
      makeLink(at(path), at(`/product/${(n % productCount) + 1}`), name((n % productCount) + 1), { form: 'relative' }),
      makeLink(at(path), at('/checkout/start'), 'Buy now'),
    ];
    if (n === 1) main.push(makeLink(at(path), at('/product/discontinued'), 'Last year’s model'));
    const content = proseContent(seed, `shop:product:${n}`, pickChangeRate(seed, `shop:product:${n}`), 2);
    addPage(host, path, page(path, `${name(n)} — €${price(n)}`, content, main));
  }

  addResource(host, '/deals', {
    kind: 'flaky',
    failures: 1,
    status: 429,
    page: page('/deals', "Today's deals", proseContent(seed, 'shop:deals', 1, 1), []),
  });
  addResource(host, '/product/discontinued', { kind: 'error', status: 410 });
  addResource(host, '/reviews', { kind: 'error', status: 500 });
  addResource(host, '/api/stock', { kind: 'error', status: 429 });
  addResource(host, '/blog', {
    kind: 'redirect',
    status: 301,
    location: `${ctx.origins.blog}/`,
    target: `${ctx.origins.blog}/`,
  });
  addResource(host, '/images/logo.png', staticFile('image/png', createPng(32, 32, seed)));
  addResource(
    host,
    '/catalog.pdf',
    staticFile(
      'application/pdf',
      createPdf(['Tinker & Co. catalog', ...products.slice(0, 20).map((n) => `${name(n)}  EUR ${price(n)}`)]),
    ),
  );
  addResource(
    host,
    '/api/products.json',
    staticFile(
      'application/json',
      JSON.stringify({
        products: products.map((n) => ({ id: n, name: name(n), price: price(n), url: `${origin}/product/${n}` })),
      }),
    ),
  );
  addResource(
    host,
    '/robots.txt',
    staticFile(
      'text/plain; charset=utf-8',
      [
        'User-agent: *',
        'Disallow: /cart',
        'Disallow: /checkout/',
        'Disallow: /*?sort=',
        'Disallow: /*.php$',
        `Sitemap: ${origin}/sitemap.xml`,
        '',
      ].join('\n'),
    ),
  );
  addResource(host, '/sitemap.xml', createSitemapResource(host, seed));
  host.relatedPool = products.map((n) => `/product/${n}`);
  return { host, declarations: {} };
}

#!/usr/bin/env python3
"""The real-web bed's ground truth and scorer, written apart from the crawler on purpose.

Nothing here imports or mirrors the crawler's code: the truth is walked over the files on disk
with Python's own HTML parser, URL joining and robots.txt parser, and a crawl is scored from
nginx's access log and from what the crawler stored (WARC files or HBase rows, its link base).

    bed.py truth --bed BED_JSON                       ground truth of every site, as JSON
    bed.py score --bed BED_JSON --truth TRUTH --ua TOKEN (--out DIR | --stack ... | --stored FILE)   a crawl's score
    bed.py recall --bed BED_JSON --truth TRUTH --texts TEXTS    main texts {url: text} against the content areas
    bed.py content --bed BED_JSON --url URL           one page's content area (for debugging)

Only the standard library: it must run wherever the bed runs.
"""
import argparse
import gzip
import hashlib
import html.parser
import json
import os
import re
import sys
import urllib.parse
import urllib.request
import urllib.robotparser

PAGE_SUFFIXES = ('.html', '.htm')
WORD = re.compile(r'\w+', re.UNICODE)


# --- the sites' files -------------------------------------------------------------------------


def load_bed(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def site_of(bed, url):
    origin = '{0.scheme}://{0.netloc}'.format(urllib.parse.urlsplit(url))
    for site in bed['sites']:
        if site['origin'] == origin:
            return site
    return None


def file_of(site, url):
    """The file nginx serves for a URL of the site (its path, query ignored), or None if outside the root."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
    if path.endswith('/'):
        path += 'index.html'
    root = os.path.abspath(site['root'])
    full = os.path.abspath(os.path.join(root, path.lstrip('/')))
    if full != root and not full.startswith(root + os.sep):
        return None
    return full


def robots_of(site):
    if not site.get('robots'):
        return None
    parser = urllib.robotparser.RobotFileParser()
    with open(site['robots'], encoding='utf-8') as f:
        parser.parse(f.read().splitlines())
    return parser


# --- HTML: links and the generators' content areas ---------------------------------------------


class LinkParser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.base = None
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == 'base' and self.base is None and attrs.get('href'):
            self.base = attrs['href']
        elif tag == 'a' and attrs.get('href') is not None:
            self.hrefs.append(attrs['href'])


def page_links(url, body):
    parser = LinkParser()
    parser.feed(body.decode('utf-8', 'replace'))
    base = urllib.parse.urljoin(url, parser.base.strip()) if parser.base else url
    links = []
    for href in parser.hrefs:
        href = href.strip()
        if not href or href.lower().startswith(('javascript:', 'mailto:', 'data:', 'tel:')):
            continue
        target, _fragment = urllib.parse.urldefrag(urllib.parse.urljoin(base, href))
        if urllib.parse.urlsplit(target).scheme in ('http', 'https'):
            links.append(target)
    return links


class ContentParser(html.parser.HTMLParser):
    """Text of a page's content area as its generator marks it out.

    Sphinx (Python) puts the page's content in the div with role="main"; DocBook (PostgreSQL)
    puts it between div.navheader and div.navfooter; AsciiDoc (Git) between div#header and
    div#footer. The generators always close their divs, so a stack of open divs is enough.
    """

    def __init__(self, generator):
        super().__init__(convert_charrefs=True)
        self.generator = generator
        self.divs = []  # per open div: 'in', 'out' or None (no change)
        self.inside = generator != 'sphinx'
        self.excluded = 0
        self.skip = 0  # inside script/style/head/title
        self.words = []

    def _div_role(self, attrs):
        classes = (attrs.get('class') or '').split()
        if self.generator == 'sphinx':
            return 'in' if attrs.get('role') == 'main' else None
        if self.generator == 'docbook':
            return 'out' if 'navheader' in classes or 'navfooter' in classes else None
        return 'out' if attrs.get('id') == 'footer' else None

    def handle_starttag(self, tag, attrs):
        if tag in ('script', 'style', 'head', 'title', 'template'):
            self.skip += 1
        elif tag == 'div':
            role = self._div_role(dict(attrs))
            self.divs.append(role)
            if role == 'in':
                self.inside_depth = getattr(self, 'inside_depth', 0) + 1
            elif role == 'out':
                self.excluded += 1

    def handle_endtag(self, tag):
        if tag in ('script', 'style', 'head', 'title', 'template'):
            self.skip = max(0, self.skip - 1)
        elif tag == 'div' and self.divs:
            role = self.divs.pop()
            if role == 'in':
                self.inside_depth -= 1
            elif role == 'out':
                self.excluded -= 1

    def handle_data(self, data):
        if self.skip or self.excluded:
            return
        if self.generator == 'sphinx' and not getattr(self, 'inside_depth', 0):
            return
        self.words.extend(WORD.findall(data.lower()))


GENERATORS = {'python': 'sphinx', 'postgres': 'docbook', 'git': 'asciidoc'}


def content_words(site, body):
    parser = ContentParser(GENERATORS.get(site['name'], 'asciidoc'))
    parser.feed(body.decode('utf-8', 'replace'))
    parser.close()
    return parser.words


def shingles(words, n=5):
    return {tuple(words[i : i + n]) for i in range(max(1, len(words) - n + 1))}


def shares_text(a_words, b_words):
    """Whether two pages share their text: the same words, or 5-word shingles that mostly coincide."""
    if a_words == b_words:
        return True
    a, b = shingles(a_words), shingles(b_words)
    return bool(a and b) and len(a & b) / len(a | b) >= 0.9


# --- the truth ----------------------------------------------------------------------------------


def walk_site(site):
    """Pages reachable from the site's index by a[href], with robots.txt applied, as nginx serves them."""
    robots = robots_of(site)
    start = site['origin'] + '/'
    queue, seen = [start], {start}
    pages, disallowed, missing, other, redirects = {}, set(), set(), set(), {}
    while queue:
        url = queue.pop(0)
        if robots and not robots.can_fetch('*', url):
            disallowed.add(url)
            continue
        path = file_of(site, url)
        if path is None or not os.path.exists(path):
            missing.add(url)
            continue
        if os.path.isdir(path):
            # nginx answers a folder without its slash with a 301 to the folder.
            target = urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path=urllib.parse.urlsplit(url).path + '/'))
            redirects[url] = target
            if target not in seen:
                seen.add(target)
                queue.append(target)
            continue
        if not path.endswith(PAGE_SUFFIXES):
            other.add(url)
            continue
        with open(path, 'rb') as f:
            body = f.read()
        links = []
        for link in page_links(url, body):
            if not link.startswith(site['origin'] + '/'):
                continue
            links.append(link)
            if link not in seen:
                seen.add(link)
                queue.append(link)
        pages[url] = {
            'url': url,
            'file': path,
            'sha256': hashlib.sha256(body).hexdigest(),
            'bytes': len(body),
            'links': sorted(set(links)),
        }
    return pages, disallowed, missing, other, redirects


def truth(bed):
    result = {'sites': [], 'pages': [], 'disallowed': [], 'missing': [], 'other': [], 'redirects': {}}
    for site in bed['sites']:
        pages, disallowed, missing, other, redirects = walk_site(site)
        result['sites'].append({'name': site['name'], 'origin': site['origin'], 'pages': len(pages)})
        result['pages'].extend(pages.values())
        result['disallowed'].extend(sorted(disallowed))
        result['missing'].extend(sorted(missing))
        result['other'].extend(sorted(other))
        result['redirects'].update(redirects)
    groups = {}
    for page in result['pages']:
        groups.setdefault(page['sha256'], []).append(page['url'])
    result['duplicateGroups'] = sorted(sorted(urls) for urls in groups.values() if len(urls) > 1)
    return result


# --- what the crawler stored --------------------------------------------------------------------


def warc_records(path):
    """(headers, block) of every record of a .warc.gz file (gzip members read as one stream)."""
    with gzip.open(path, 'rb') as f:
        data = f.read()
    pos = 0
    while True:
        start = data.find(b'WARC/1.', pos)
        if start < 0:
            return
        head_end = data.index(b'\r\n\r\n', start)
        headers = {}
        for line in data[start:head_end].split(b'\r\n')[1:]:
            name, _, value = line.decode('utf-8', 'replace').partition(':')
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get('content-length', '0'))
        block = data[head_end + 4 : head_end + 4 + length]
        yield headers, block
        pos = head_end + 4 + length


def stored_from_warc(out_dir):
    """Per URL: how many response records, and the main text of its last metadata record."""
    stored = {}
    warc_dir = os.path.join(out_dir, 'warc')
    for name in sorted(os.listdir(warc_dir)):
        if not name.endswith('.warc.gz'):
            continue
        for headers, block in warc_records(os.path.join(warc_dir, name)):
            url = headers.get('warc-target-uri')
            if url is None:  # the warcinfo record that opens each file
                continue
            # A redirect the crawler followed is archived as a response with its 3xx status: not a page.
            if headers.get('warc-type') == 'response' and re.match(rb'HTTP/\S+ 3\d\d ', block):
                continue
            entry = stored.setdefault(url, {'responses': 0, 'text': None})
            if headers.get('warc-type') == 'response':
                entry['responses'] += 1
            elif headers.get('warc-type') == 'metadata':
                try:
                    text = json.loads(block).get('text')
                except ValueError:
                    continue
                # A revisit's metadata holds no text: the page's stays the one it was stored with.
                if text is not None:
                    entry['text'] = text
    return stored


def linkbase_from_dir(out_dir):
    """The embedded link base: JSON lines of records (snapshot, then journal); the last line of an id wins."""
    records = {}
    base = os.path.join(out_dir, 'linkbase')
    names = sorted(os.listdir(base), key=lambda n: (0 if 'snapshot' in n else 1, n))
    for name in names:
        if not name.endswith('.jsonl'):
            continue
        with open(os.path.join(base, name), encoding='utf-8') as f:
            for line in f:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue  # a torn last line
                if isinstance(record, dict) and 'url' in record:
                    records[record['url']] = record
    return records


def http_json(url, body=None, method='GET'):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={'content-type': 'application/json'})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def linkbase_from_elasticsearch(es_url, index):
    records = {}
    page = http_json(f'{es_url}/{index}/_search?scroll=1m', {'size': 1000, 'query': {'match_all': {}}}, 'POST')
    while page['hits']['hits']:
        for hit in page['hits']['hits']:
            records[hit['_source']['url']] = hit['_source']
        page = http_json(f'{es_url}/_search/scroll', {'scroll': '1m', 'scroll_id': page['_scroll_id']}, 'POST')
    return records


def stored_from_hbase(rest_url, table):
    """Per URL: the number of page versions of its row (row key = SURT; the URL is in the stored page's cells)."""
    import base64

    stored = {}
    scanner = urllib.request.Request(
        f'{rest_url}/{table}/scanner',
        data=b'<Scanner batch="100" maxVersions="1000"/>',
        method='PUT',
        headers={'content-type': 'text/xml'},
    )
    with urllib.request.urlopen(scanner, timeout=60) as response:
        location = response.headers['Location']
    try:
        while True:
            request = urllib.request.Request(location, headers={'accept': 'application/json'})
            with urllib.request.urlopen(request, timeout=60) as response:
                if response.status == 204:
                    break
                rows = json.loads(response.read())['Row']
            for row in rows:
                key = base64.b64decode(row['key']).decode('utf-8', 'replace')
                # A revisit (p:revisit) is a capture of bytes stored elsewhere, a redirect (p:redirect)
                # one the crawler followed: neither is a page version.
                versions = {
                    cell['timestamp']
                    for cell in row['Cell']
                    if base64.b64decode(cell['column']) not in (b'p:revisit', b'p:redirect')
                }
                if not versions:
                    continue
                entry = stored.setdefault(key, {'responses': 0, 'text': None})
                entry['responses'] = max(entry['responses'], len(versions))
    finally:
        urllib.request.urlopen(urllib.request.Request(location, method='DELETE'), timeout=60).close()
    return stored


def stored_from_list(path):
    """A crawler without a link base (wget, Scrapy...): the URLs it kept, one a line, listed twice if kept twice.

    A fragment never reaches the server, so `page.html#part` names the page kept as `page.html`.
    """
    stored = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            url = urllib.parse.urldefrag(line.strip())[0]
            if url:
                stored.setdefault(url, {'responses': 0, 'text': None})['responses'] += 1
    return stored


def requests_from_log(log_path, ua_token, origins):
    """(origin + uri, status, if-none-match or if-modified-since sent) of every request of this crawl."""
    by_port = {urllib.parse.urlsplit(o).port: o for o in origins}
    requests = []
    with open(log_path, encoding='utf-8') as f:
        for line in f:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if ua_token not in entry.get('ua', '') or entry.get('port') not in by_port:
                continue
            conditional = bool(entry.get('inm') or entry.get('ims'))
            requests.append((by_port[entry['port']] + entry['uri'], entry['status'], conditional))
    return requests


# --- the score ---------------------------------------------------------------------------------


def surt_like(url):
    """How the HBase row key names a URL, close enough to match rows to truth pages: host:port)path?query."""
    parts = urllib.parse.urlsplit(url)
    key = f'{parts.hostname}:{parts.port}){parts.path or "/"}'
    return key + ('?' + parts.query if parts.query else '')


def score(bed, truth_doc, ua_token, stored, linkbase):
    truth_pages = {p['url']: p for p in truth_doc['pages']}
    origins = [s['origin'] for s in bed['sites']]
    requests = requests_from_log(bed['accessLog'], ua_token, origins)
    counts = {}
    for url, _status, _cond in requests:
        counts[url] = counts.get(url, 0) + 1
    disallowed = set(truth_doc['disallowed'])
    group_of = {}
    for group in truth_doc['duplicateGroups']:
        for url in group:
            group_of[url] = tuple(group)

    def stored_count(url):
        entry = stored.get(url) or stored.get(surt_like(url))
        return entry['responses'] if entry else 0

    words_cache = {}

    def words(url):
        if url not in words_cache:
            site = site_of(bed, url)
            path = file_of(site, url) if site else None
            if not path or not os.path.isfile(path):
                words_cache[url] = None
            else:
                with open(path, 'rb') as f:
                    words_cache[url] = content_words(site, f.read())
        return words_cache[url]

    not_requested = sorted(u for u in truth_pages if counts.get(u, 0) == 0)
    requested_twice = sorted(u for u in truth_pages if counts.get(u, 0) > 1)
    disallowed_requested = sorted(u for u in disallowed if counts.get(u, 0) > 0)
    known = set(truth_pages) | disallowed | set(truth_doc['other']) | set(truth_doc['missing'])
    known |= set(truth_doc['redirects']) | {origin + '/robots.txt' for origin in origins}
    outside = sorted(u for u in counts if u not in known)
    stored_twice = sorted(u for u in truth_pages if stored_count(u) > 1)
    # Every distinct page is stored: itself, or one member of its exact-duplicate group.
    not_stored = []
    for url in truth_pages:
        group = group_of.get(url, (url,))
        if not any(stored_count(member) > 0 for member in group):
            not_stored.append(url)
    group_stored_twice = sorted(g for g in {tuple(g) for g in truth_doc['duplicateGroups']}
                                if sum(1 for m in g if stored_count(m) > 0) > 1)
    false_duplicates, true_duplicates = [], 0
    for url, record in linkbase.items():
        if record.get('status') != 'duplicate' or url not in truth_pages:
            continue
        original = record.get('duplicateOf')
        if original and group_of.get(url) and original in group_of[url]:
            true_duplicates += 1
            continue
        mine, theirs = words(url), words(original) if original else None
        if mine is not None and theirs is not None and shares_text(mine, theirs):
            true_duplicates += 1
        else:
            false_duplicates.append({'url': url, 'duplicateOf': original})
    conditional = sum(1 for _u, _s, c in requests if c)
    not_modified = sum(1 for _u, s, _c in requests if s == 304)
    return {
        'truthPages': len(truth_pages),
        'requests': len(requests),
        'truthPagesRequested': len(truth_pages) - len(not_requested),
        'notRequested': not_requested,
        'requestedTwice': requested_twice,
        'disallowedRequested': disallowed_requested,
        'outsideTruthRequested': outside,
        'storedTwice': stored_twice,
        'groupsStoredTwice': [list(g) for g in group_stored_twice],
        'notStored': sorted(not_stored),
        'duplicates': true_duplicates + len(false_duplicates),
        'falseDuplicates': false_duplicates,
        'conditionalRequests': conditional,
        'notModified': not_modified,
    }


def word_counts(words):
    """How many times each word occurs."""
    counts = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return counts


def text_score(expected, text):
    """Recall: the share of the content area's words found in the text; precision: the share of the
    text's words that are in the content area (each word counted as often as it occurs in both)."""
    got = WORD.findall(text.lower())
    want, have = word_counts(expected), word_counts(got)
    hit = sum(min(n, have.get(w, 0)) for w, n in want.items())
    return {'recall': hit / len(expected), 'precision': hit / len(got) if got else 0.0, 'words': len(expected)}


def text_recall(bed, truth_doc, texts):
    """Per truth page with a text and a non-empty content area: recall and precision of the text."""
    results = []
    for page in truth_doc['pages']:
        text = texts.get(page['url'])
        if text is None:
            continue
        site = site_of(bed, page['url'])
        with open(page['file'], 'rb') as f:
            expected = content_words(site, f.read())
        if not expected:
            continue
        results.append({'url': page['url'], **text_score(expected, text)})
    return results


def recall_summary(results, threshold=0.95):
    """The share of pages at `threshold` recall or more, mean recall and mean precision."""
    n = len(results) or 1
    return {
        'pages': len(results),
        'atThreshold': threshold,
        'shareAtThreshold': sum(1 for r in results if r['recall'] >= threshold) / n,
        'meanRecall': sum(r['recall'] for r in results) / n,
        'meanPrecision': sum(r['precision'] for r in results) / n,
        # Over all words of all pages: a big page weighs by its size.
        'wordPrecision': sum(r['precision'] * r['words'] for r in results) / (sum(r['words'] for r in results) or 1),
    }


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    t = sub.add_parser('truth')
    t.add_argument('--bed', required=True)
    s = sub.add_parser('score')
    s.add_argument('--bed', required=True)
    s.add_argument('--truth', required=True)
    s.add_argument('--ua', required=True, help='a token of the crawl User-Agent: its requests in the log')
    s.add_argument('--out', help="an embedded crawl's --out folder")
    s.add_argument('--es-url')
    s.add_argument('--es-index')
    s.add_argument('--hbase-rest')
    s.add_argument('--hbase-table')
    s.add_argument('--stored', help='a file of the URLs a crawler without a link base kept, one a line')
    s.add_argument('--text-recall', action='store_true', help='also score main text against content areas')
    r = sub.add_parser('recall')
    r.add_argument('--bed', required=True)
    r.add_argument('--truth', required=True)
    r.add_argument('--texts', required=True, help='a JSON object {url: main text}')
    r.add_argument('--worst', type=int, default=0, help='also list the N pages of lowest recall')
    c = sub.add_parser('content')
    c.add_argument('--bed', required=True)
    c.add_argument('--url', required=True)
    args = parser.parse_args(argv)
    bed = load_bed(args.bed)
    if args.command == 'truth':
        json.dump(truth(bed), sys.stdout, indent=1)
    elif args.command == 'recall':
        with open(args.truth, encoding='utf-8') as f:
            truth_doc = json.load(f)
        with open(args.texts, encoding='utf-8') as f:
            texts = json.load(f)
        results = text_recall(bed, truth_doc, texts)
        summary = recall_summary(results)
        summary['missing'] = sorted(p['url'] for p in truth_doc['pages'] if p['url'] not in texts)
        if args.worst:
            summary['worst'] = sorted(results, key=lambda r: r['recall'])[: args.worst]
        json.dump(summary, sys.stdout, indent=1)
    elif args.command == 'content':
        site = site_of(bed, args.url)
        with open(file_of(site, args.url), 'rb') as f:
            print(' '.join(content_words(site, f.read())))
    else:
        with open(args.truth, encoding='utf-8') as f:
            truth_doc = json.load(f)
        if args.out:
            stored, linkbase = stored_from_warc(args.out), linkbase_from_dir(args.out)
        elif args.stored:
            stored, linkbase = stored_from_list(args.stored), {}
        else:
            stored = stored_from_hbase(args.hbase_rest, args.hbase_table)
            linkbase = linkbase_from_elasticsearch(args.es_url, args.es_index)
        result = score(bed, truth_doc, args.ua, stored, linkbase)
        if args.text_recall:
            texts = {url: entry['text'] for url, entry in stored.items() if entry.get('text') is not None}
            result['textRecall'] = text_recall(bed, truth_doc, texts)
            result['textRecallSummary'] = recall_summary(result['textRecall'])
        json.dump(result, sys.stdout, indent=1)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main(sys.argv[1:])

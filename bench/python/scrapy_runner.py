"""Scrapy as a peer of the bench (the child side of bench/src/peers/peer-protocol.ts).

A plain Spider following every link its LinkExtractor finds, as the Scrapy tutorial crawls a
site: in-memory scheduler (no JOBDIR), ROBOTSTXT_OBEY=True (Scrapy's RobotsTxtMiddleware fetches
robots.txt once per origin and drops disallowed requests), no delay, no AutoThrottle, and
allowed_domains = the seeds' hosts (Scrapy's OffsiteMiddleware), as the other peers keep to them.
Every HTML page its callback gets counts as kept, as if it yielded an item for it.
"""
import json
import sys
import time

import urllib.parse

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor

config = json.load(open(sys.argv[1]))
ok_urls = []
stored_urls = []
state = {"started": 0.0, "last": 0.0}


class BenchSpider(scrapy.Spider):
    name = "bench"
    start_urls = config["seeds"]
    allowed_domains = sorted({urllib.parse.urlsplit(seed).hostname for seed in config["seeds"]})
    links = LinkExtractor()

    def parse(self, response):
        ok_urls.append(response.url)
        state["last"] = time.perf_counter()
        if not isinstance(response, HtmlResponse):
            return
        stored_urls.append(response.url)
        for link in self.links.extract_links(response):
            yield response.follow(link.url, self.parse)


settings = {
    "ROBOTSTXT_OBEY": True,
    "CONCURRENT_REQUESTS": config["concurrency"],
    # Scrapy's download slots are per hostname, and every test web host is 127.0.0.1.
    "CONCURRENT_REQUESTS_PER_DOMAIN": config["concurrency"],
    "DOWNLOAD_DELAY": 0,
    "AUTOTHROTTLE_ENABLED": False,
    "CLOSESPIDER_PAGECOUNT": config["maxPages"],
    "CLOSESPIDER_TIMEOUT": config["timeLimitMs"] / 1000,
    "LOG_LEVEL": "ERROR",
    "TELNETCONSOLE_ENABLED": False,
}
if config.get("userAgent"):
    settings["USER_AGENT"] = config["userAgent"]
process = CrawlerProcess(settings)
process.crawl(BenchSpider)
print(json.dumps({"event": "ready"}), flush=True)
sys.stdin.readline()
state["started"] = time.perf_counter()
process.start()
seconds = time.perf_counter() - state["started"]
with open(config["okFile"], "w") as out:
    out.write("\n".join(ok_urls))
with open(config["storedFile"], "w") as out:
    out.write("\n".join(stored_urls))
done = {
    "event": "done",
    "pages": len(ok_urls),
    "seconds": seconds,
    "lastPageSeconds": state["last"] - state["started"],
    "notes": {"version": scrapy.__version__},
}
print(json.dumps(done), flush=True)
sys.stdin.readline()

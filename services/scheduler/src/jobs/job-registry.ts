import { createScope, type CrawlJob, type Scope } from '@crawler/core';

/**
 * The crawl jobs the scheduler serves: the one from its job file, and any added while it runs.
 * Messages name their job; one the scheduler does not know (a job of another scheduler, or one
 * removed) is served with the default job's rules.
 */
export class JobRegistry {
  private readonly jobs = new Map<string, CrawlJob>();
  private readonly scopes = new Map<string, Scope>();

  constructor(readonly defaultJob: CrawlJob) {
    this.add(defaultJob);
  }

  add(job: CrawlJob): void {
    this.jobs.set(job.id, job);
    this.scopes.set(job.id, createScope(job));
  }

  has(id: string): boolean {
    return this.jobs.has(id);
  }

  get(id: string): CrawlJob {
    return this.jobs.get(id) ?? this.defaultJob;
  }

  scope(id: string): Scope {
    return this.scopes.get(id) ?? this.scopes.get(this.defaultJob.id)!;
  }

  list(): CrawlJob[] {
    return [...this.jobs.values()];
  }
}

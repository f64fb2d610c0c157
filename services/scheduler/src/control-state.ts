import { EMPTY_CONTROL, type DueQuery, type LinkBase, type LinkBaseControl } from '@crawler/core';

/**
 * The operator's state (paused jobs and queues, jobs added at run time), kept in the link base so
 * a restart keeps it, and cached here; load() reads it again, as another scheduler's admin API may
 * have changed it. Writes are serialized, so two admin requests at once to one scheduler cannot
 * lose each other's change (two schedulers' admin APIs written at the same instant can: the last wins).
 */
export class ControlState {
  private state: LinkBaseControl = EMPTY_CONTROL;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly linkbase: LinkBase) {}

  async load(): Promise<LinkBaseControl> {
    this.state = await this.linkbase.getControl();
    return this.state;
  }

  get current(): LinkBaseControl {
    return this.state;
  }

  isJobPaused(jobId: string): boolean {
    return this.state.pausedJobs.includes(jobId);
  }

  isQueuePaused(queueKey: string): boolean {
    return this.state.pausedQueues.includes(queueKey);
  }

  /** What findDue must leave out. */
  exclude(): NonNullable<DueQuery['exclude']> {
    return { queues: this.state.pausedQueues, jobs: this.state.pausedJobs };
  }

  setJobPaused(jobId: string, paused: boolean): Promise<LinkBaseControl> {
    return this.change((state) => ({ ...state, pausedJobs: toggle(state.pausedJobs, jobId, paused) }));
  }

  setQueuePaused(queueKey: string, paused: boolean): Promise<LinkBaseControl> {
    return this.change((state) => ({ ...state, pausedQueues: toggle(state.pausedQueues, queueKey, paused) }));
  }

  /** Keeps a job added at run time (as given), replacing one with the same id. */
  saveJob(raw: { id: string }): Promise<LinkBaseControl> {
    return this.change((state) => ({
      ...state,
      jobs: [...state.jobs.filter((job) => (job as { id?: unknown }).id !== raw.id), raw],
    }));
  }

  private change(mutate: (state: LinkBaseControl) => LinkBaseControl): Promise<LinkBaseControl> {
    const next = this.writing.then(async () => {
      const updated = mutate(this.state);
      await this.linkbase.putControl(updated);
      this.state = updated;
      return updated;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }
}

function toggle(list: readonly string[], item: string, present: boolean): string[] {
  const without = list.filter((entry) => entry !== item);
  return present ? [...without, item] : without;
}

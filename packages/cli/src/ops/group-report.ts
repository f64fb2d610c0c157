import {
  brokerName,
  CrawlerError,
  describeGroup,
  type Bus,
  type GroupDescription,
  type PartitionProgress,
  ErrorCode,
} from '@crawler/core';

export interface PartitionReport extends PartitionProgress {
  /** `hostname/pid` (or member id) of the member that owns the partition; null when none does. */
  owner: string | null;
}

export interface GroupReport {
  group: string;
  state: string;
  members: number;
  lag: number;
  partitions: PartitionReport[];
  description: GroupDescription;
}

/** One group's description with each partition's owner and the group's total lag. */
export function groupReport(description: GroupDescription): GroupReport {
  const owners = new Map<string, string>();
  for (const member of description.members) {
    for (const tp of member.partitions) owners.set(`${tp.topic}/${tp.partition}`, member.instance ?? member.memberId);
  }
  return {
    group: description.groupId,
    state: description.state,
    members: description.members.length,
    lag: description.partitions.reduce((sum, entry) => sum + entry.lag, 0),
    partitions: description.partitions.map((entry) => ({
      ...entry,
      owner: owners.get(`${entry.topic}/${entry.partition}`) ?? null,
    })),
    description,
  };
}

/**
 * Describes every group, named as on the broker. A topic that does not exist usually means no
 * crawl runs under this topic prefix, and the error says so.
 */
export async function describeGroups(
  bus: Bus,
  groups: { group: string; topics: string[] }[],
): Promise<GroupDescription[]> {
  return Promise.all(groups.map(({ group, topics }) => describeGroup(bus, group, topics))).catch((error: unknown) => {
    if (!(error instanceof CrawlerError) || error.code !== ErrorCode.BUS_UNKNOWN_TOPIC) throw error;
    const topics = groups.flatMap((group) => group.topics.map((topic) => brokerName(bus, topic))).join(', ');
    throw new CrawlerError(
      ErrorCode.CLI_NO_CRAWL_TOPICS,
      `the topics ${topics} are not all on this cluster: no crawl runs here with this CRAWLER_TOPIC_PREFIX`,
      { cause: error },
    );
  });
}

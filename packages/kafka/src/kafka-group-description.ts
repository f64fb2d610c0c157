import type { GroupDescription, GroupMember, PartitionProgress, TopicPartition } from '@crawler/core';
import { AssignerProtocol, type Admin, type MemberDescription } from 'kafkajs';
import { commitAuthorOf, commitTimeOf, decodeMemberIdentity } from './member-identity.js';

/** Members with their process and partitions (DescribeGroups), and every partition's progress. */
export async function describeKafkaGroup(admin: Admin, groupId: string, topics: string[]): Promise<GroupDescription> {
  const [{ groups }, partitions] = await Promise.all([
    admin.describeGroups([groupId]),
    readProgress(admin, groupId, topics),
  ]);
  const group = groups[0];
  return { groupId, state: group?.state ?? 'Dead', members: (group?.members ?? []).map(toMember), partitions };
}

/**
 * Per partition: the group's committed offset (-1 if none), when and by whom it last moved, the log
 * end and what is left to read. Committed offsets are read before the log ends: a commit never
 * passes the log end of its time, so an end read later is at least as far and the lag is never
 * negative (read together, a commit that moved after the ends were read made the lag negative).
 */
export async function readProgress(admin: Admin, groupId: string, topics: string[]): Promise<PartitionProgress[]> {
  const committed = await admin.fetchOffsets({ groupId, topics });
  const ends = await Promise.all(topics.map((topic) => admin.fetchTopicOffsets(topic)));
  const out: PartitionProgress[] = [];
  topics.forEach((topic, index) => {
    const commits = new Map(
      (committed.find((entry) => entry.topic === topic)?.partitions ?? []).map((entry) => [entry.partition, entry]),
    );
    for (const { partition, high, low } of ends[index]!) {
      const commit = commits.get(partition);
      const offset = commit ? Number(commit.offset) : -1;
      const end = Number(high);
      out.push({
        topic,
        partition,
        committed: offset,
        end,
        // Still clamped: a topic deleted and created again can have a commit past its new end.
        lag: Math.max(0, end - (offset < 0 ? Number(low) : offset)),
        committedAt: offset < 0 ? null : commitTimeOf(commit?.metadata),
        committedBy: offset < 0 ? null : commitAuthorOf(commit?.metadata),
      });
    }
  });
  return out.sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
}

function toMember(member: MemberDescription): GroupMember {
  return {
    memberId: member.memberId,
    clientId: member.clientId,
    host: member.clientHost.replace(/^\//, ''),
    instance: decodeMemberIdentity(
      decodeSafely(() => AssignerProtocol.MemberMetadata.decode(member.memberMetadata)?.userData),
    ),
    partitions: assignedPartitions(member.memberAssignment),
  };
}

/** A member that is still joining has an empty assignment. */
function assignedPartitions(assignment: Buffer): TopicPartition[] {
  const decoded =
    assignment.length > 0 ? decodeSafely(() => AssignerProtocol.MemberAssignment.decode(assignment)) : null;
  return Object.entries(decoded?.assignment ?? {})
    .flatMap(([topic, partitions]) => partitions.map((partition) => ({ topic, partition })))
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
}

/** Another client's assignor may write bytes of its own shape: unknown, not an error. */
function decodeSafely<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch {
    return null;
  }
}

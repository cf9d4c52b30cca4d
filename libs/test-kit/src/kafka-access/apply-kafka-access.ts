import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Admin,
  ResourcePatternTypes,
} from 'kafkajs';
import { KafkaAccessPlan } from './kafka-access-plan';

/**
 * Creates the plan's missing topics (the cluster's default replication factor) and its ACLs,
 * through an admin client of a principal allowed to (a super user). Both are idempotent: an
 * ACL that exists already is created again without a second copy.
 */
export async function applyKafkaAccess(admin: Admin, plan: KafkaAccessPlan): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = plan.topics.filter((t) => !existing.has(t.name));
  if (missing.length > 0)
    await admin.createTopics({
      topics: missing.map((t) => ({ topic: t.name, numPartitions: t.partitions })),
      waitForLeaders: true,
    });
  await admin.createAcls({
    acl: plan.acls.map((acl) => ({
      resourceType: AclResourceTypes[acl.resourceType],
      resourceName: acl.prefix,
      resourcePatternType: ResourcePatternTypes.PREFIXED,
      principal: `User:${acl.principal}`,
      host: '*',
      operation: AclOperationTypes[acl.operation],
      permissionType: AclPermissionTypes.ALLOW,
    })),
  });
}

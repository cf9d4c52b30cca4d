import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Admin,
  ResourcePatternTypes,
} from 'kafkajs';
import { waitFor } from '../wait-for';
import { KafkaAccessPlan } from './kafka-access-plan';

/**
 * Creates the plan's missing topics (the cluster's default replication factor) and its ACLs,
 * through an admin client of a principal allowed to (a super user), and returns once the
 * broker it asks enforces them. Both are idempotent: an ACL that exists already is not added
 * twice.
 */
export async function applyKafkaAccess(admin: Admin, plan: KafkaAccessPlan): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = plan.topics.filter((t) => !existing.has(t.name));
  if (missing.length > 0)
    await admin.createTopics({
      topics: missing.map((t) => ({ topic: t.name, numPartitions: t.partitions })),
      waitForLeaders: true,
    });
  if (plan.acls.length === 0) return;
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
  await waitFor(() => aclsInForce(admin, plan), {
    timeoutMs: 60_000,
    intervalMs: 100,
    description: 'the ACLs in force on the broker',
  });
}

/**
 * True once the broker `admin` asks lists every ACL of the plan. The controller commits an
 * ACL before each broker's authorizer has it: a client that comes at once may be refused.
 */
export async function aclsInForce(admin: Admin, plan: KafkaAccessPlan): Promise<boolean> {
  // Nothing to wait for, and a cluster without an authorizer refuses to describe ACLs.
  if (plan.acls.length === 0) return true;
  const { resources } = await admin.describeAcls({
    resourceType: AclResourceTypes.ANY,
    resourcePatternType: ResourcePatternTypes.PREFIXED,
    operation: AclOperationTypes.ANY,
    permissionType: AclPermissionTypes.ALLOW,
  });
  const listed = new Set(
    resources.flatMap((r) =>
      r.acls.map((a) => `${r.resourceType}|${r.resourceName}|${a.principal}|${a.operation}`),
    ),
  );
  return plan.acls.every((acl) =>
    listed.has(
      `${AclResourceTypes[acl.resourceType]}|${acl.prefix}|User:${acl.principal}|${AclOperationTypes[acl.operation]}`,
    ),
  );
}

import { deploymentFaultOf, isDeploymentFault } from './deployment-fault';

/** A TypeORM QueryFailedError's shape: the driver's error under `driverError`. */
const wrapped = (driverError: object) => Object.assign(new Error('query failed'), { driverError });

// The messages as MySQL 8 ('…') and MariaDB 10.11 (`…`) word them; the int-spec provokes them.
describe('deploymentFaultOf', () => {
  it.each([
    [1146, 'ER_NO_SUCH_TABLE', "Table 'shop.t_inbox' doesn't exist", 'table', 't_inbox'],
    [
      1054,
      'ER_BAD_FIELD_ERROR',
      "Unknown column 'duplicate_count' in 'field list'",
      'column',
      'duplicate_count',
    ],
    [
      1142,
      'ER_TABLEACCESS_DENIED_ERROR',
      "UPDATE command denied to user 'svc'@'localhost' for table `shop`.`t_inbox`",
      'grant',
      'UPDATE on t_inbox',
    ],
    [
      1142,
      'ER_TABLEACCESS_DENIED_ERROR',
      "INSERT command denied to user 'svc'@'localhost' for table 't_outbox'",
      'grant',
      'INSERT on t_outbox',
    ],
    [
      1143,
      'ER_COLUMNACCESS_DENIED_ERROR',
      "UPDATE command denied to user 'svc'@'%' for column 'lease_until' in table 't_outbox'",
      'grant',
      'UPDATE on t_outbox.lease_until',
    ],
  ])('MySQL %i (%s): "%s" is a missing %s', (errno, code, message, kind, subject) => {
    expect(deploymentFaultOf(wrapped({ errno, code, message }))).toEqual({ kind, subject, code });
  });

  it.each([
    ['42P01', 'relation "t_outbox" does not exist', 'table', 't_outbox'],
    ['42703', 'column "duplicate_count" does not exist', 'column', 'duplicate_count'],
    [
      '42703',
      'column "sent_at" of relation "t_outbox" does not exist',
      'column',
      't_outbox.sent_at',
    ],
    ['42501', 'permission denied for table t_inbox', 'grant', 'table t_inbox'],
  ])('PostgreSQL %s: "%s" is a missing %s', (code, message, kind, subject) => {
    const error = new Error('x', { cause: wrapped({ code, message }) });
    expect(deploymentFaultOf(error)).toEqual({ kind, subject, code });
  });

  it('keeps the whole message when it cannot name the subject', () => {
    expect(deploymentFaultOf({ errno: 1146, message: 'no such table' })).toEqual({
      kind: 'table',
      subject: 'no such table',
      code: '1146',
    });
  });

  it('is none for refused credentials, a lock wait, a duplicate key, or nothing', () => {
    expect(isDeploymentFault({ errno: 1045, code: 'ER_ACCESS_DENIED_ERROR' })).toBe(false);
    expect(isDeploymentFault({ errno: 1044, code: 'ER_DBACCESS_DENIED_ERROR' })).toBe(false);
    expect(isDeploymentFault({ code: '28P01' })).toBe(false);
    expect(isDeploymentFault(wrapped({ errno: 1205 }))).toBe(false);
    expect(isDeploymentFault({ code: '23505' })).toBe(false);
    expect(isDeploymentFault(undefined)).toBe(false);
  });
});

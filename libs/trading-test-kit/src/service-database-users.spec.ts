import { renderServiceUsersSql, servicePrivileges } from './service-database-users';

const PASSWORDS = {
  MIGRATOR_DB_PASSWORD: 'm',
  ORDER_DB_PASSWORD: 'o',
  FULFILLMENT_DB_PASSWORD: 'f',
  ACCOUNTING_DB_PASSWORD: 'a',
  COUPON_DB_PASSWORD: 'c',
};

describe('deploy/mysql/service-users.sql, rendered', () => {
  it('fills the prefix and the passwords, and leaves the comments out', () => {
    const sql = renderServiceUsersSql({ PREFIX: 't1_', ...PASSWORDS });
    expect(sql).toContain("CREATE USER 't1_order_service'@'%' IDENTIFIED BY 'o';");
    expect(sql).toContain(
      "GRANT SELECT, INSERT, UPDATE, DELETE ON `t1_order_service`.* TO 't1_order_service'@'%';",
    );
    expect(sql).not.toMatch(/\$\{|^--/m);
  });

  it('escapes a password for the quoted string it stands in', () => {
    const sql = renderServiceUsersSql({ PREFIX: '', ...PASSWORDS, ORDER_DB_PASSWORD: "o'\\x" });
    expect(sql).toContain("IDENTIFIED BY 'o\\'\\\\x';");
  });

  it('refuses a placeholder without a value and a prefix that is not a plain name', () => {
    expect(() => renderServiceUsersSql({ PREFIX: '' })).toThrow(/\$\{MIGRATOR_DB_PASSWORD\}/);
    expect(() => renderServiceUsersSql({ PREFIX: "x'; DROP", ...PASSWORDS })).toThrow(/PREFIX/);
  });

  it("reads each service's privileges as the file grants them", () => {
    expect(servicePrivileges('order_service')).toBe('SELECT, INSERT, UPDATE, DELETE');
    expect(servicePrivileges('coupon_provider')).toBe('SELECT, INSERT, UPDATE');
  });
});

import { ConnectOnce } from './connect-once';

describe('ConnectOnce', () => {
  it('connects once for every caller while the connection holds', async () => {
    let connects = 0;
    const connection = new ConnectOnce(async () => void connects++);
    await Promise.all([connection.connected(), connection.connected()]);
    await connection.connected();
    expect(connects).toBe(1);
  });

  it('connects again after a failed attempt, and after a reset', async () => {
    let connects = 0;
    const connection = new ConnectOnce(async () => {
      connects++;
      if (connects === 1) throw new Error('broker down');
    });
    await expect(connection.connected()).rejects.toThrow('broker down');
    await connection.connected();
    expect(connects).toBe(2);
    connection.reset();
    await connection.connected();
    expect(connects).toBe(3);
  });
});

import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A stored Idempotency-Key of POST /orders with the first response. */
export interface StoredOrderRequest {
  key: string;
  requestHash: string;
  orderId: string;
  responseStatus: number;
  responseBody: unknown;
}

/** t_order_idempotency, always through the caller's transaction. */
@Injectable()
export class OrderIdempotencyRepository {
  async find(manager: EntityManager, key: string): Promise<StoredOrderRequest | undefined> {
    const rows: Array<{
      request_hash: string;
      order_id: string;
      response_status: number;
      response_body: string | object;
    }> = await manager.query(
      `SELECT request_hash, order_id, response_status, response_body
         FROM t_order_idempotency WHERE idempotency_key = ?`,
      [key],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      key,
      requestHash: row.request_hash,
      orderId: String(row.order_id),
      responseStatus: Number(row.response_status),
      responseBody:
        typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body,
    };
  }

  /** Fails with ER_DUP_ENTRY when a concurrent request stored the key first. */
  async insert(manager: EntityManager, request: StoredOrderRequest): Promise<void> {
    await manager.query(
      `INSERT INTO t_order_idempotency
         (idempotency_key, request_hash, order_id, response_status, response_body, created_at)
       VALUES (?, ?, ?, ?, ?, UTC_TIMESTAMP(3))`,
      [
        request.key,
        request.requestHash,
        request.orderId,
        request.responseStatus,
        JSON.stringify(request.responseBody),
      ],
    );
  }
}

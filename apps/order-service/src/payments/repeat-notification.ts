/** The fields of a payment notification that its decision used. */
export interface NotificationDecision {
  orderId: string;
  payOrderId: string;
  amount: number;
  currency: string;
  status: 'SUCCESS' | 'FAILED';
}

/** The decision fields, in the order a 422 names them. */
export const DECISION_FIELDS: readonly (keyof NotificationDecision)[] = [
  'orderId',
  'payOrderId',
  'amount',
  'currency',
  'status',
];

/**
 * The fields in which a repeat of a processed notifyId differs from the notification that was
 * processed. Only a repeat that differs in none of them may get the stored answer: any other
 * notification under the same id says something else, and answering it SUCCESS would tell the
 * provider something false.
 */
export function differingFields(
  processed: NotificationDecision,
  repeat: NotificationDecision,
): (keyof NotificationDecision)[] {
  return DECISION_FIELDS.filter((field) => processed[field] !== repeat[field]);
}

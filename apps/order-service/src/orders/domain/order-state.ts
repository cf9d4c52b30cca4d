/** Where an order is in its life. PAID and CANCELLED are final. */
export type OrderStatus = 'CREATED' | 'PAYING' | 'PAID' | 'CANCELLED' | 'PAYMENT_FAILED';

/** The commands an order accepts, named in rejections. */
export type OrderAction = 'startPayment' | 'confirmPayment' | 'failPayment' | 'cancel';

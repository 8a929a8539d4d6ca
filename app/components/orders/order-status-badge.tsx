import { Badge } from "~/components/ui/badge";
import { ORDER_STATUS_LABELS, type OrderStatus } from "~/domain/catalog-values";

const STATUS_TONES: Record<
  OrderStatus,
  "success" | "warning" | "neutral" | "info"
> = {
  pending_payment: "warning",
  paid: "success",
  shipped: "info",
  cancelled: "neutral",
  expired: "neutral",
  refund_pending: "warning",
  refunded: "neutral",
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <Badge tone={STATUS_TONES[status]}>{ORDER_STATUS_LABELS[status]}</Badge>
  );
}

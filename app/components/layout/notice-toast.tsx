import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { toast } from "~/components/ui/toaster";
import { noticeFor } from "~/domain/notices";

/** Shows the `?notice=` message of a redirect once, then takes it out of the address. */
export function NoticeToast() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const notice = noticeFor(params.get("notice"));
    if (!params.has("notice")) return;
    if (notice) toast.success(notice.title, { description: notice.description });
    params.delete("notice");
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : "" }, { replace: true, preventScrollReset: true });
  }, [location.pathname, location.search, navigate]);
  return null;
}

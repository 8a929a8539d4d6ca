import { Monitor, Moon, Sun } from "lucide-react";
import { Button } from "~/components/ui/button";
import { useOnDemand } from "~/components/ui/on-demand";
import { useTheme } from "~/lib/theme";
import type { ThemeOption } from "./header-menus";

const OPTIONS: ThemeOption[] = [
  { value: "light", label: "Clair", icon: <Sun className="size-4" aria-hidden="true" /> },
  { value: "dark", label: "Sombre", icon: <Moon className="size-4" aria-hidden="true" /> },
  { value: "system", label: "Système", icon: <Monitor className="size-4" aria-hidden="true" /> },
];

const loadHeaderMenus = () => import("./header-menus");

/** Light, dark or system: a stand-in button until the menu's code arrives on first intent. */
export function ThemeToggle() {
  const { choice, resolved, setTheme } = useTheme();
  const { module: menus, trigger, arrival } = useOnDemand(loadHeaderMenus, "pointerdown");
  const Current = resolved === "dark" ? Moon : Sun;
  const icon = <Current aria-hidden="true" />;
  if (menus) {
    return (
      <menus.ThemeMenu arrival={arrival} choice={choice} options={OPTIONS} onChange={setTheme}>
        <Button variant="ghost" size="icon" aria-label="Changer le thème">
          {icon}
        </Button>
      </menus.ThemeMenu>
    );
  }
  return (
    <Button variant="ghost" size="icon" aria-label="Changer le thème" aria-haspopup="menu" aria-expanded={false} data-state="closed" {...trigger}>
      {icon}
    </Button>
  );
}

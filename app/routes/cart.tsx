// Placeholder while the page is being built.
export default function Placeholder() {
  return null;
}

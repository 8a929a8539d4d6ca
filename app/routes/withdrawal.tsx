// Placeholder (issue 12): replaced by its owner.
export default function Placeholder() {
  return <p>En construction</p>;
}

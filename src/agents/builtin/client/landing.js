// A landing page: sign-ups are kept in this browser and thanked by address.
{
  const form = kit.$("#add-form");
  form.addEventListener("submit", () => {
    const email = form.elements.namedItem("email")?.value.trim();
    if (email) kit.$("#thanks").textContent = `Thanks! ${email} is on the list.`;
  });
  kit.collection();
}

// An API's sandbox: "sending" the form answers as the service would, and the list is its GET.
{
  const path = `/${APP.noun.many.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  let last = 0;
  kit.collection({
    onChange: (records) => {
      if (records.length > last) {
        const created = records.at(-1);
        kit.$("#response").textContent = `POST ${path}\n201 Created\n${JSON.stringify(created, null, 2)}`;
      }
      last = records.length;
    },
  });
}

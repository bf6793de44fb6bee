/** One suggestion of an editor picker (the `morelogin/pick/` and `morelogin/catalogue/` routes): the name shown, `id` what the field stores, `detail` a second line. */
export interface PickerItem {
  id: string;
  name: string;
  detail?: string;
}

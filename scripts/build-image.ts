// Builds the product image of this checkout (or finds the one built from the same sources), as
// `apc certify --reference container` does, and prints its name. APC_BASE_IMAGE names the base.
import { productImage } from '../harness/reference/reference-image.ts';

const image = await productImage(process.env, (line) => console.log(line));
console.log(`${image.name} ${image.id}`);

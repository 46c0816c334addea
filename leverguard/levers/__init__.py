"""The lever engine, in the order data flows: text/ -> model/ -> classify/ -> transitions/ -> gates/; api, hook and render are its face."""

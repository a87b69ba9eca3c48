-- Version 2 to 3: the code hash of a candidate (tuner/build/codehash.c): a
-- hash of the code generated for its problem and parameters (the expanded
-- template source without comments and layout, the #defines, the launch
-- geometry). `export` and resumed runs judge a stored result on it, so an
-- edit of a shared header that leaves that code unchanged orphans nothing.
-- NULL for candidates stored before it existed: they are judged on
-- template_hash, as before, and a resumed run fills it in.
ALTER TABLE candidates ADD COLUMN code_hash TEXT;

-- ledger_close_holds keeps one generic plan per connection (018). A plan made while its tables
-- were small — a new database, or the first close after a quiet start — scanned escrow_holds
-- and ledger_accounts whole, and kept doing so for as long as the connection lived, each close
-- costlier than the last as holds accumulate (bench/ledger: 142 M hold rows read in 13 s, the
-- pairs per second falling by a third from one 12-second run to the next). Every statement it
-- runs finds its rows by key (a hold's owner, its ids, its players' accounts), so its plans use
-- the indexes whatever the statistics say.
ALTER FUNCTION ledger_close_holds(text, text, uuid, uuid, uuid, uuid, uuid, text) SET enable_seqscan = off;

-- Demo catalog, loaded in dev and test only.
INSERT INTO sku (id, code, name, price, stock, lock_stock) VALUES
    (1, 'TEE-BLK-M',  'T-shirt, black, M',      59.00, 100, 0),
    (2, 'TEE-WHT-L',  'T-shirt, white, L',      59.00, 100, 0),
    (3, 'MUG-CLASSIC','Classic mug',            35.50,  50, 0),
    (4, 'CAP-RED',    'Baseball cap, red',      79.90,  20, 0),
    (5, 'SOCKS-3P',   'Socks, 3 pairs',         29.90, 200, 0);

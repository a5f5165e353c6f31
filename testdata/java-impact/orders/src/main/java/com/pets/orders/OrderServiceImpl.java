package com.pets.orders;

import org.springframework.stereotype.Service;

@Service
public class OrderServiceImpl implements OrderService {
    private final OrderMapper mapper;

    public OrderServiceImpl(OrderMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public long generateOrder(OrderParam param) {
        return mapper.insert(param);
    }

    @Override
    public void cancel(long id) {
    }
}
